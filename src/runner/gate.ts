// A gate between the kinds of work of runs that share one process (the self-tests run many
// fault gateways at once): `work` (request building, property checks), `timing` (checks that
// measure when events arrive) and `alone` (a check that allocates a lot, e.g. 46 MiB of bodies:
// it and the garbage collections it causes run beside nothing). `work` and `timing` run beside
// their own kind, never beside the other, so a timing verdict is never delayed by another run's
// work in the same event loop. First come, first served between the kinds: none waits for ever.
export type GateKind = 'work' | 'timing' | 'alone';

export class PhaseGate {
  private active: GateKind | null = null;
  private running = 0;
  private queue: Array<{ kind: GateKind; go: () => void }> = [];

  /** Waits until `kind` may run; the returned function ends this turn. */
  async enter(kind: GateKind): Promise<() => void> {
    // Join the running kind only while nobody of the other kind waits (else it would starve).
    const free = this.running === 0 && !this.queue.length;
    if (free || (kind !== 'alone' && this.active === kind && !this.queue.some((w) => w.kind !== kind))) {
      this.active = kind;
      this.running++;
    } else {
      await new Promise<void>((go) => this.queue.push({ kind, go }));
    }
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running--;
      if (this.running === 0) this.admit();
    };
  }

  /** Lets in every waiter of the kind at the head of the queue. */
  private admit(): void {
    this.active = null;
    const head = this.queue[0];
    if (!head) return;
    this.active = head.kind;
    const admitted = head.kind === 'alone' ? [head] : this.queue.filter((w) => w.kind === head.kind);
    this.queue = this.queue.filter((w) => !admitted.includes(w));
    this.running += admitted.length;
    for (const w of admitted) w.go();
  }

  /** Which kind runs now and how many turns are open (for tests). */
  get state(): { active: GateKind | null; running: number; waiting: number } {
    return { active: this.active, running: this.running, waiting: this.queue.length };
  }
}
