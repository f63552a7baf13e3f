// Types of scripts/detection-rows.mjs for the tests that import it (test/helpers/detection-matrix.ts).
export type Outcomes = Record<string, string>;
export interface Matrix {
  /** fault -> its whole row, merged from every file that holds a part of it */
  faults: Record<string, Outcomes>;
  /** fault -> the flags its run takes (from its home file) */
  flags: Record<string, Record<string, unknown>>;
  /** fault -> check id -> the file (a name in test/detection/) that holds that row */
  placed: Record<string, Record<string, string>>;
  /** fault -> its home file, null when it is only in protocols' own files */
  home: Record<string, string | null>;
  /** fault -> the files that hold a part of its row */
  files: Record<string, string[]>;
}
export const OTHER_MATRICES: string[];
export function ownProtocol(id: string, protocols: readonly string[]): string | null;
export function readMatrix(dir: URL, protocols: readonly string[]): Matrix;
export function placeRow(matrix: Matrix, fault: string, id: string, home: string, protocols: readonly string[], exists: (file: string) => boolean): string;
export function splitRow(matrix: Matrix, fault: string, row: Outcomes, home: string, protocols: readonly string[], exists: (file: string) => boolean): Record<string, Outcomes>;
