// parse-prometheus-text-format ships no types: what the tests read of its output (prom2json's shape).
declare module "parse-prometheus-text-format" {
  export type ParsedSample = {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  };
  export type ParsedFamily = { name: string; help: string; type: string; metrics: ParsedSample[] };
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
