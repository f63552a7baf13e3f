// A gate between the two kinds of work of runs that share one process (the self-tests run
// many fault gateways at once): `work` (request building, property checks, large bodies) and
// `timing` (checks that measure when events arrive). Either kind runs beside its own kind,
// never beside the other, so a timing verdict is never delayed by another run's work in the
// same event loop. First come, first served between the kinds: neither waits for ever.
export type GateKind = 'work' | 'timing';

export class PhaseGate {
  private active: GateKind | null = null;
  private running = 0;
  private queue: Array<{ kind: GateKind; go: () => void }> = [];

  /** Waits until `kind` may run; the returned function ends this turn. */
  async enter(kind: GateKind): Promise<() => void> {
    // Join the running kind only while nobody of the other kind waits (else it would starve).
    if (this.running === 0 || (this.active === kind && !this.queue.some((w) => w.kind !== kind))) {
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
    const admitted = this.queue.filter((w) => w.kind === head.kind);
    this.queue = this.queue.filter((w) => w.kind !== head.kind);
    this.running += admitted.length;
    for (const w of admitted) w.go();
  }

  /** Which kind runs now and how many turns are open (for tests). */
  get state(): { active: GateKind | null; running: number; waiting: number } {
    return { active: this.active, running: this.running, waiting: this.queue.length };
  }
}
