// What a started gateway wrote: its output lines, masked as they come, kept head and tail,
// and summed up in one line for a harness error or the report.
import { maskLogLine } from './image.js';
import { maskCut } from '../core/mask.js';

export const TAIL_LINES = 200;
const HEAD_LINES = 20;
const SUMMARY_CHARS = 600;

/** Output lines kept from a process, masked as they come. */
export class Tail {
  lines: string[] = [];
  /** The first lines, kept even when the tail has moved on (a refusal's start says the most). */
  head: string[] = [];
  private dropped = false;
  private partial = '';
  constructor(private readonly secrets: string[]) {}
  feed(chunk: Buffer) {
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    for (const l of parts) this.push(l.replace(/\r$/, ''));
  }
  flush() {
    if (this.partial) this.push(this.partial);
    this.partial = '';
  }
  private push(l: string) {
    const masked = maskLogLine(l, this.secrets);
    this.lines.push(masked);
    if (this.head.length < HEAD_LINES && masked.trim()) this.head.push(masked);
    if (this.lines.length > TAIL_LINES) {
      this.lines.splice(0, this.lines.length - TAIL_LINES);
      this.dropped = true;
    }
  }
  /**
   * What a command that exited wrote, as one line: up to 5 lines as they are (` | ` between
   * them); more (e.g. a validation error printed as indented JSON) from its start, spaces
   * collapsed, the middle cut when long.
   */
  summary(): string {
    const all = this.last(TAIL_LINES);
    if (all.length <= 5 && !this.dropped) return all.length ? `last output: ${all.join(' | ')}` : '';
    const text = [...(this.dropped ? [...this.head, '…'] : []), ...all].map((l) => l.trim()).join(' ').replace(/\s+/g, ' ');
    return `output: ${text.length > SUMMARY_CHARS ? `${maskCut(text, SUMMARY_CHARS - 120, text.length, this.secrets)} ${maskCut(text.slice(-100), 100, text.length, this.secrets, text.length - 100)}` : text}`;
  }
  last(n: number) {
    return [...this.lines, ...(this.partial ? [maskLogLine(this.partial, this.secrets)] : [])].filter((l) => l.trim()).slice(-n);
  }
}

