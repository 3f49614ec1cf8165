// Draws the lab's icons into public/ (committed; run `node scripts/icons.mjs` again after a change here):
// a sequence diagram in small, two lanes and a request crossing to the server and its answer coming back,
// on the page's ink. The PNGs are rasterized here with Node's zlib only (no image library): each pixel is
// the average of 4×4 samples of the shapes, so edges are smooth. The same shapes are written as SVG.
//   public/favicon.svg              the tab's icon (any size)
//   public/favicon.ico              32 px, for browsers and tools that ask for /favicon.ico (a PNG inside an ICO)
//   public/icon-192.png, icon-512.png        the app's icons (rounded square)
//   public/icon-maskable-512.png    full-bleed, the drawing inside the middle 80% (the maskable safe zone)
//   public/apple-touch-icon.png     180 px, full-bleed
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const OUT = new URL('../public/', import.meta.url);
const INK = [0x11, 0x18, 0x27];
const PAPER = [0xff, 0xff, 0xff];
const LANE = [0x9c, 0xa3, 0xaf];
const REQUEST = [0x60, 0xa5, 0xfa];
const ANSWER = [0xfb, 0xbf, 0x24];

/** The drawing in a unit square: lanes, two sloped messages with arrowheads, the lane heads. */
const LANES = [0.3, 0.7];
const MESSAGES = [
  { from: [0.3, 0.4], to: [0.7, 0.52], colour: REQUEST },
  { from: [0.7, 0.62], to: [0.3, 0.76], colour: ANSWER },
];
const STROKE = 0.045;
const HEAD = 0.11;

const dist = (px, py, [ax, ay], [bx, by]) => {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
};
/** The arrowhead at a message's end: a triangle pointing along it. */
function head({ from, to }) {
  const len = Math.hypot(to[0] - from[0], to[1] - from[1]);
  const ux = (to[0] - from[0]) / len;
  const uy = (to[1] - from[1]) / len;
  const base = [to[0] - ux * HEAD, to[1] - uy * HEAD];
  return [
    to,
    [base[0] - uy * HEAD * 0.55, base[1] + ux * HEAD * 0.55],
    [base[0] + uy * HEAD * 0.55, base[1] - ux * HEAD * 0.55],
  ];
}
/** Where a message's line stops: inside its arrowhead, so the two join without a seam. */
function shaftEnd({ from, to }) {
  const len = Math.hypot(to[0] - from[0], to[1] - from[1]);
  return [to[0] - ((to[0] - from[0]) / len) * HEAD * 0.7, to[1] - ((to[1] - from[1]) / len) * HEAD * 0.7];
}
const inTriangle = (px, py, [a, b, c]) => {
  const side = (p, q) => (q[0] - p[0]) * (py - p[1]) - (q[1] - p[1]) * (px - p[0]);
  const s1 = side(a, b);
  const s2 = side(b, c);
  const s3 = side(c, a);
  return (s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0);
};
const inRoundedSquare = (px, py, radius) => {
  const cx = Math.min(Math.max(px, radius), 1 - radius);
  const cy = Math.min(Math.max(py, radius), 1 - radius);
  return px >= 0 && px <= 1 && py >= 0 && py <= 1 && Math.hypot(px - cx, py - cy) <= radius;
};

/** The colour at a point of the unit square, or null outside the icon's shape. */
function colourAt(px, py, { radius }) {
  if (!inRoundedSquare(px, py, radius)) return null;
  for (const message of MESSAGES) {
    if (dist(px, py, message.from, shaftEnd(message)) <= STROKE / 2 || inTriangle(px, py, head(message)))
      return message.colour;
  }
  for (const x of LANES) {
    if (Math.abs(py - 0.18) <= 0.05 && Math.abs(px - x) <= 0.12) return PAPER;
    if (Math.abs(px - x) <= 0.014 && py >= 0.23 && py <= 0.86) return LANE;
  }
  return INK;
}

/** An RGBA image `size` px square: the drawing scaled by `scale` about the centre, in a square rounded by `radius`. */
function render(size, { scale = 1, radius = 0 }) {
  const SS = 4;
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const ux = (x + (sx + 0.5) / SS) / size;
          const uy = (y + (sy + 0.5) / SS) / size;
          // The background fills the whole square; the drawing is scaled into its middle.
          const inside = inRoundedSquare(ux, uy, radius);
          if (!inside) continue;
          const c = colourAt(0.5 + (ux - 0.5) / scale, 0.5 + (uy - 0.5) / scale, { radius: 0 }) ?? INK;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 255;
        }
      }
      const n = SS * SS;
      const covered = a / 255;
      const at = (y * size + x) * 4;
      rgba[at] = covered === 0 ? 0 : Math.round(r / covered);
      rgba[at + 1] = covered === 0 ? 0 : Math.round(g / covered);
      rgba[at + 2] = covered === 0 ? 0 : Math.round(b / covered);
      rgba[at + 3] = Math.round(a / n);
    }
  }
  return rgba;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
/** A PNG (8-bit RGBA, no interlace) of a square RGBA image. */
function png(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
/** An ICO holding one PNG image (Windows Vista and every browser read PNG inside ICO). */
function ico(size, pngBytes) {
  const head = Buffer.alloc(6 + 16);
  head.writeUInt16LE(0, 0);
  head.writeUInt16LE(1, 2);
  head.writeUInt16LE(1, 4);
  head.writeUInt8(size >= 256 ? 0 : size, 6);
  head.writeUInt8(size >= 256 ? 0 : size, 7);
  head.writeUInt16LE(1, 10);
  head.writeUInt16LE(32, 12);
  head.writeUInt32LE(pngBytes.length, 14);
  head.writeUInt32LE(22, 18);
  return Buffer.concat([head, pngBytes]);
}

const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
function svg() {
  const lines = [];
  lines.push(`<rect width="100" height="100" rx="18" fill="${hex(INK)}"/>`);
  for (const x of LANES) {
    lines.push(`<rect x="${x * 100 - 12}" y="13" width="24" height="10" rx="3" fill="${hex(PAPER)}"/>`);
    lines.push(`<rect x="${x * 100 - 1.4}" y="23" width="2.8" height="63" fill="${hex(LANE)}"/>`);
  }
  for (const message of MESSAGES) {
    const [x2, y2] = shaftEnd(message);
    lines.push(
      `<line x1="${message.from[0] * 100}" y1="${message.from[1] * 100}" x2="${(x2 * 100).toFixed(2)}" y2="${(y2 * 100).toFixed(2)}" stroke="${hex(message.colour)}" stroke-width="${STROKE * 100}" stroke-linecap="round"/>`,
    );
    lines.push(
      `<polygon points="${head(message)
        .map(([x, y]) => `${(x * 100).toFixed(2)},${(y * 100).toFixed(2)}`)
        .join(' ')}" fill="${hex(message.colour)}"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n  ${lines.join('\n  ')}\n</svg>\n`;
}

mkdirSync(OUT, { recursive: true });
const write = (name, bytes) => {
  writeFileSync(new URL(name, OUT), bytes);
  console.log(`public/${name}: ${bytes.length} bytes`);
};
write('favicon.svg', svg());
write('favicon.ico', ico(32, png(32, render(32, { radius: 0.18 }))));
write('icon-192.png', png(192, render(192, { radius: 0.18 })));
write('icon-512.png', png(512, render(512, { radius: 0.18 })));
write('icon-maskable-512.png', png(512, render(512, { scale: 0.8 })));
write('apple-touch-icon.png', png(180, render(180, { scale: 0.86 })));
