import type { MarkerTone } from '../../engine';
import {
  CHIP_FONT_PX,
  CHIP_H,
  CHIP_H_PER_LINE,
  CHIP_PAD_X,
  CHIP_W_MIN,
  MARKER_FONT_PX,
  MARKER_H,
  MARKER_H_PER_LINE,
  MARKER_PAD_X,
  MARKER_W,
  MARKER_W_MAX,
} from './model';

/** A box's text metrics: the full marker (Linear time) or the race view's compact chip. */
export interface BoxMetrics {
  fontPx: number;
  height: number;
  heightPerLine: number;
  padX: number;
  widthMin: number;
}
export const MARKER_METRICS: BoxMetrics = {
  fontPx: MARKER_FONT_PX,
  height: MARKER_H,
  heightPerLine: MARKER_H_PER_LINE,
  padX: MARKER_PAD_X,
  widthMin: MARKER_W,
};
export const CHIP_METRICS: BoxMetrics = {
  fontPx: CHIP_FONT_PX,
  height: CHIP_H,
  heightPerLine: CHIP_H_PER_LINE,
  padX: CHIP_PAD_X,
  widthMin: CHIP_W_MIN,
};

/** The diagram's text metrics: how wide a label is estimated to be, and how a marker's text wraps (pure, so the layout runs anywhere). */

/**
 * Advance widths of the sans-serif the diagram uses, in em, by character class: an estimate a
 * little generous on purpose (a marker is never cut: its text sets its width on screen; this only
 * decides how far apart the lanes are and when a label wraps). Pure, so the layout can run anywhere.
 */
function charEm(code: number): number {
  if (code === 32) return 0.32;
  if (code >= 48 && code <= 57) return 0.64;
  if (code >= 65 && code <= 90) return code === 73 ? 0.32 : code === 77 || code === 87 ? 0.9 : 0.72;
  if (code >= 97 && code <= 122)
    return 'fijlrt'.includes(String.fromCharCode(code)) ? 0.36 : code === 109 || code === 119 ? 0.92 : 0.62;
  if (code < 128) return ".,:;!|'()[]".includes(String.fromCharCode(code)) ? 0.36 : 0.62;
  return 1;
}

/** charEm of each ASCII code, looked up (a label's width is asked for on every pass of the layout). */
const ASCII_EM = Float64Array.from({ length: 128 }, (_, code) => charEm(code));

export function textWidthPx(text: string, fontPx: number, bold = false): number {
  let em = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    em += code < 128 ? (ASCII_EM[code] as number) : charEm(code);
  }
  return em * fontPx * (bold ? 1.1 : 1);
}

/** Where a marker's text may break: after a space, and after `_` or `.` inside a long name (the marker view puts a <wbr> there). */
const BREAKS = /(?<=[ _.])/;

/**
 * A marker's box: its width from its text, wrapped when one line would be wider than `widthMax`
 * (MARKER_W_MAX, or MARKER_W_MAX_CONNECTION on a SQLite connection's lane). The lines are counted by
 * filling them piece by piece as the browser does, with the same generous widths, so the box the
 * layout makes room for is never shorter than the text drawn in it.
 */
export function markerSize(
  text: string,
  tone: MarkerTone,
  widthMax = MARKER_W_MAX,
  metrics: BoxMetrics = MARKER_METRICS,
): { width: number; height: number; lines: number } {
  const bold = tone === 'bad' || tone === 'strong' || tone === 'warn';
  const fontPx = tone === 'muted' ? Math.min(14, metrics.fontPx) : metrics.fontPx;
  const oneLine = Math.ceil(textWidthPx(text, fontPx, bold)) + metrics.padX;
  if (oneLine <= widthMax) return { width: Math.max(metrics.widthMin, oneLine), height: metrics.height, lines: 1 };
  const room = widthMax - metrics.padX;
  let lines = 1;
  let used = 0;
  for (const piece of text.split(BREAKS)) {
    const px = textWidthPx(piece, fontPx, bold);
    if (used > 0 && used + textWidthPx(piece.trimEnd(), fontPx, bold) > room) {
      lines += 1;
      used = 0;
    }
    // A piece longer than a line is broken anywhere (overflow-wrap: anywhere).
    lines += Math.max(0, Math.ceil(px / room) - 1);
    used = px > room ? px % room : used + px;
  }
  return { width: widthMax, height: metrics.height + (lines - 1) * metrics.heightPerLine, lines };
}
