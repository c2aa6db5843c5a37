// Types for the untyped `macaroon` package (go-macaroon/js-macaroon 3.0.4), the parts this package uses.
declare module "macaroon" {
  export interface Macaroon {
    readonly location: string;
    readonly identifier: Uint8Array;
    readonly signature: Uint8Array;
    readonly caveats: Array<{ identifier: Uint8Array; location?: string; vid?: Uint8Array }>;
    addFirstPartyCaveat(condition: string | Uint8Array): void;
    verify(rootKey: Uint8Array | string, check: (condition: string) => string | null, discharges?: Macaroon[]): void;
    clone(): Macaroon;
  }
  export function newMacaroon(opts: {
    identifier: Uint8Array | string;
    location?: string;
    rootKey: Uint8Array | string;
    version?: 1 | 2;
  }): Macaroon;
  export function importMacaroon(data: string | Uint8Array | object): Macaroon;
  export function bytesToBase64(bytes: Uint8Array): string;
  export function base64ToBytes(s: string): Uint8Array;
}
