/**
 * The probes running in this window, so that closing or reloading the window stops them the way
 * Cancel does: each keeps what it measured and saves it before the extension host goes (VS Code
 * gives `deactivate` about 5 s). A panel restored in the new window then shows that partial result.
 */

interface RunningProbe {
  /** Cancels the run; it goes on to save its partial result. */
  stop: () => void;
  /** Settles once the run's result is saved (or the run failed). */
  finished: Promise<unknown>;
}

export class RunningProbes {
  private readonly active = new Set<RunningProbe>();
  private closingWindow = false;

  /** True once the window is closing: runs save what they measured and show nothing more. */
  get closing(): boolean {
    return this.closingWindow;
  }

  get count(): number {
    return this.active.size;
  }

  /** Tracks a run until `finished` settles. */
  track(stop: () => void, finished: Promise<unknown>): void {
    const probe: RunningProbe = { stop, finished };
    this.active.add(probe);
    void finished.then(
      () => this.active.delete(probe),
      () => this.active.delete(probe),
    );
  }

  /**
   * Stops every run and waits until each has saved its result, or `boundMs` has passed. Resolves to
   * the number of runs still unsaved at that point (0 when all made it).
   */
  async stopAll(boundMs: number): Promise<number> {
    this.closingWindow = true;
    const probes = [...this.active];
    for (const probe of probes) {
      try {
        probe.stop();
      } catch {
        // One run that cannot be stopped must not keep the others from stopping and saving.
      }
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
    });
    await Promise.race([Promise.allSettled(probes.map((p) => p.finished)), bound]);
    clearTimeout(timer);
    return probes.filter((p) => this.active.has(p)).length;
  }
}
