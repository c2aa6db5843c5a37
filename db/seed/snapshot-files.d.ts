// The seed snapshot's gzip files are imported as files (`with { type: "file" }`): a path at run time, embedded in
// the binary by `bun build --compile`.
declare module "*.gz" {
  const path: string;
  export default path;
}
