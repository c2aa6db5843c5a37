// The service's icon: three rising bars on a rounded square. One shape, drawn twice: as SVG for the landing page
// (inline, so the page needs no second request) and rasterised once at module load into a 16 and 32 pixel
// /favicon.ico, which browsers and crawlers ask for whatever a page links. Drawn in code rather than committed as a
// binary so the compiled executable needs no asset and the two renderings cannot drift apart.

const BACKGROUND = [0x13, 0x3a, 0x5e] as const; // RGB
const BAR = [0x5e, 0xea, 0xd4] as const;

/** Shape in unit coordinates (y down): the tile's corner radius, and each bar as [left, top, right] down to BAR_BOTTOM. */
const CORNER = 0.22;
const BAR_BOTTOM = 0.8;
const BARS: readonly (readonly [number, number, number])[] = [
  [0.19, 0.56, 0.35],
  [0.42, 0.38, 0.58],
  [0.65, 0.2, 0.81],
];

const hex = (rgb: readonly number[]) => `#${rgb.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
const svgUnits = (v: number) => Number((v * 32).toFixed(2));

/** The icon as an SVG document (32 unit viewBox). */
export const ICON_SVG =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
  `<rect width="32" height="32" rx="${svgUnits(CORNER)}" fill="${hex(BACKGROUND)}"/>` +
  BARS.map(
    ([l, t, r]) =>
      `<rect x="${svgUnits(l)}" y="${svgUnits(t)}" width="${svgUnits(r - l)}" height="${svgUnits(BAR_BOTTOM - t)}" fill="${hex(BAR)}"/>`,
  ).join("") +
  `</svg>`;

function insideTile(x: number, y: number): boolean {
  const cx = Math.min(Math.max(x, CORNER), 1 - CORNER);
  const cy = Math.min(Math.max(y, CORNER), 1 - CORNER);
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2;
}

function onBar(x: number, y: number): boolean {
  return y <= BAR_BOTTOM && BARS.some(([l, t, r]) => x >= l && x <= r && y >= t);
}

// Samples per pixel side: 4x4 supersampling gives the edges of a 16 pixel icon their anti-aliasing.
const SUPERSAMPLE = 4;

/** One size as an ICO image entry: a 32-bit BMP (BITMAPINFOHEADER, bottom-up BGRA rows, then the 1-bit AND mask). */
function bmpImage(size: number): Uint8Array {
  const maskRow = Math.ceil(size / 32) * 4;
  const out = new Uint8Array(40 + size * size * 4 + maskRow * size);
  const view = new DataView(out.buffer);
  view.setUint32(0, 40, true);
  view.setInt32(4, size, true);
  view.setInt32(8, size * 2, true); // ICO convention: the height counts the colour rows and the mask rows
  view.setUint16(12, 1, true);
  view.setUint16(14, 32, true);
  view.setUint32(20, size * size * 4 + maskRow * size, true);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      let tile = 0;
      let bar = 0;
      for (let sy = 0; sy < SUPERSAMPLE; sy++) {
        for (let sx = 0; sx < SUPERSAMPLE; sx++) {
          const x = (col + (sx + 0.5) / SUPERSAMPLE) / size;
          const y = (row + (sy + 0.5) / SUPERSAMPLE) / size;
          if (!insideTile(x, y)) continue;
          tile++;
          if (onBar(x, y)) bar++;
        }
      }
      const samples = SUPERSAMPLE * SUPERSAMPLE;
      const mix = (k: number) => (tile === 0 ? 0 : Math.round((BACKGROUND[k] * (tile - bar) + BAR[k] * bar) / tile));
      const at = 40 + ((size - 1 - row) * size + col) * 4; // BMP rows run bottom-up
      out[at] = mix(2);
      out[at + 1] = mix(1);
      out[at + 2] = mix(0);
      out[at + 3] = Math.round((255 * tile) / samples);
    }
  }
  return out; // the AND mask stays zero: the alpha channel decides transparency
}

function buildIco(sizes: readonly number[]): Uint8Array {
  const images = sizes.map(bmpImage);
  const header = 6 + 16 * sizes.length;
  const out = new Uint8Array(header + images.reduce((n, img) => n + img.length, 0));
  const view = new DataView(out.buffer);
  view.setUint16(2, 1, true); // type 1: icon
  view.setUint16(4, sizes.length, true);
  let offset = header;
  sizes.forEach((size, k) => {
    const entry = 6 + 16 * k;
    out[entry] = size;
    out[entry + 1] = size;
    view.setUint16(entry + 4, 1, true); // colour planes
    view.setUint16(entry + 6, 32, true); // bits per pixel
    view.setUint32(entry + 8, images[k].length, true);
    view.setUint32(entry + 12, offset, true);
    out.set(images[k], offset);
    offset += images[k].length;
  });
  return out;
}

export const FAVICON_ICO: Uint8Array = buildIco([16, 32]);
export const FAVICON_CONTENT_TYPE = "image/x-icon";
/** The icon changes only with the code: a day's cache, revalidated after a deploy within that. */
export const FAVICON_CACHE_CONTROL = "public, max-age=86400";
