// A tagged template for HTML that escapes every interpolated value unless it is already markup (made by `html`
// itself or marked with `trusted`), so nothing read from the database, the configuration or a request can inject
// markup into a page.
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/** Markup written in our code (the stylesheet, the icon): never pass text that came from outside. */
export function trusted(markup: string): Markup {
  return new Markup(markup);
}

type Value = Markup | string | number | null | undefined | false | readonly Value[];

function render(v: Value): string {
  if (v instanceof Markup) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  if (v === null || v === undefined || v === false) return "";
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0];
  for (let k = 0; k < values.length; k++) out += render(values[k]) + strings[k + 1];
  return new Markup(out);
}
