// A configuration file as YAML: the parsed value plus positions from the document's node
// ranges (yaml parseDocument + LineCounter), never from searching the text.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

export type KeyPath = readonly (string | number)[];
export interface Position {
  line: number;
  column: number;
}

export class YamlSyntaxError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    message: string,
  ) {
    super(message);
  }
}

export class Source {
  readonly value: unknown;
  private constructor(
    readonly name: string,
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {
    this.value = doc.toJS({ maxAliasCount: 100 });
  }

  /** Parses `text`; a YAML error becomes a YamlSyntaxError carrying its line and column. */
  static parse(name: string, text: string): Source {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, merge: true });
    const err = doc.errors[0];
    if (err) {
      const at = lines.linePos(err.pos[0]);
      throw new YamlSyntaxError(at.line, at.col, err.message.split('\n')[0]);
    }
    try {
      return new Source(name, doc, lines);
    } catch (e) {
      // toJS fails on alias bombs and similar: still "not usable YAML", at the top.
      throw new YamlSyntaxError(1, 1, (e as Error).message.split('\n')[0]);
    }
  }

  private pos(offset: number): Position {
    const p = this.lines.linePos(offset);
    return { line: p.line, column: p.col };
  }

  /**
   * Where `path` is written: the key of the last mapping entry on the path (so a finding about
   * `oidc.client_secret` points at `client_secret:`), or the list item itself. A path that goes
   * further than the document does points at the deepest part that exists.
   */
  locate(path: KeyPath): Position {
    let node: unknown = this.doc.contents;
    let at: Position = { line: 1, column: 1 };
    if (node && (node as Node).range) at = this.pos((node as Node).range![0]);
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
        if (!pair) return at;
        const key = pair.key as Node | null;
        if (key?.range) at = this.pos(key.range[0]);
        node = pair.value;
      } else if (isSeq(node) && typeof seg === 'number') {
        const item = node.items[seg] as Node | undefined;
        if (!item) return at;
        if (item.range) at = this.pos(item.range[0]);
        node = item;
      } else return at;
    }
    return at;
  }

  /** The top-level keys in document order, with the position of each. */
  topKeys(): Array<{ key: string; at: Position }> {
    const root = this.doc.contents;
    if (!isMap(root)) return [];
    return root.items.map((p) => ({ key: isScalar(p.key) ? String(p.key.value) : String(p.key), at: this.pos((p.key as Node).range?.[0] ?? 0) }));
  }
}
