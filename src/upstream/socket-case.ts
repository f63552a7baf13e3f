// One scripted socket case as the recording upstream keeps it (mocks/upstream/socket.ts fills
// it): its records, and the waits on them, each bounded and woken by what arrives, never by polling.
import { patientTimeout } from '../core/stall.js';
import type { PlainArrival, RecordedSocket, SocketClose, SocketExpectation, SocketFrame, SocketScript } from './socket.js';

export class SocketCase implements SocketExpectation {
  readonly sockets: RecordedSocket[] = [];
  readonly plain: PlainArrival[] = [];
  private waiters: Array<() => void> = [];
  constructor(
    readonly token: string,
    readonly script: SocketScript,
  ) {}
  /** Something about this case changed: its waiters look again. */
  notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }
  private async waitFor<T>(get: () => T | null, graceMs: number): Promise<T | null> {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const now = get();
      if (now !== null || Date.now() >= deadline) return now;
      await new Promise<void>((resolve) => {
        const cancel = patientTimeout(() => setImmediate(resolve), Math.max(0, deadline - Date.now()));
        this.waiters.push(() => (cancel(), resolve()));
      });
    }
  }
  arrived(graceMs: number): Promise<'socket' | 'plain' | null> {
    return this.waitFor(() => (this.sockets.length ? 'socket' : this.plain.length ? 'plain' : null), graceMs);
  }
  async frames(dir: SocketFrame['dir'], n: number, graceMs: number): Promise<number> {
    const count = () => this.sockets[0]?.frames.filter((f) => f.dir === dir).length ?? 0;
    await this.waitFor(() => (count() >= n || this.sockets[0]?.closed ? true : null), graceMs);
    return count();
  }
  closed(graceMs: number): Promise<SocketClose | null> {
    return this.waitFor(() => this.sockets[0]?.closed ?? null, graceMs);
  }
  ponged(graceMs: number): Promise<number | null> {
    return this.waitFor(() => this.sockets[0]?.pongAt ?? null, graceMs);
  }
}
