// A value made on first use and the same ever after, for what is code rather than data (a compiled WebAssembly
// module): loading it costs, and holding it changes nothing that any caller can observe. Never for data that a
// write, a clock or a request can change: that belongs in a cache made with its owner.
export function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => (made ??= { value: make() }).value;
}
