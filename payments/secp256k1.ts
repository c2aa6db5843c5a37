// secp256k1 keys for both rails (an x402 pay-to address, the development Lightning node's key), from @noble/curves,
// the curve library viem itself uses, without loading viem.
import { secp256k1 } from "@noble/curves/secp256k1";

/** The uncompressed public key (0x04 || x || y) of a private key. */
export function uncompressedPublicKey(privateKey: Uint8Array): Uint8Array {
  return secp256k1.getPublicKey(privateKey, false);
}

/** A fresh private key (32 bytes from the system's secure random source, on the curve). */
export function newPrivateKeyBytes(): Uint8Array {
  return secp256k1.utils.randomPrivateKey();
}
