// Colour for the console. Whether to colour is decided once per stream: `--color`/`--no-color`
// win, then NO_COLOR (any value turns colour off), then FORCE_COLOR (`0` or `false` turns it off,
// anything else on, empty included, as Node reads it), then whether the stream is a terminal (TERM=dumb is not). The colouring is
// Node's util.styleText (Node 20.12 and later; no dependency to carry); it is asked to style
// unconditionally (`validateStream: false`) because the decision above is ours, the same on every
// Node version, and on a Node without styleText the text stays plain.
import * as util from 'node:util';

export type Colour = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'gray' | 'bold' | 'dim';

/** What decides colour for one stream. */
export interface ColourInputs {
  /** --color (true), --no-color (false), neither (undefined). */
  flag?: boolean;
  env: NodeJS.ProcessEnv;
  isTTY: boolean;
}

/** Whether text written to this stream is coloured. */
export function colourWanted({ flag, env, isTTY }: ColourInputs): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !/^(0|false)$/i.test(force);
  return isTTY && env.TERM !== 'dumb';
}

type StyleText = (format: string, text: string, options?: { validateStream?: boolean }) => string;
const styleText = (util as { styleText?: StyleText }).styleText;

/** Paints text in one or more styles (outermost first), or leaves it plain when `on` is false. */
export function painter(on: boolean): (styles: Colour | Colour[], text: string) => string {
  if (!on || !styleText) return (_s, text) => text;
  return (styles, text) => [styles].flat().reduceRight((t, s) => styleText(s, t, { validateStream: false }), text);
}
