// vega-datasets' tab-separated sample is imported as text (`with { type: "text" }`) so `bun build --compile` embeds it.
declare module "*.tsv" {
  const text: string;
  export default text;
}
