/** Where the load schedulers hand each outcome: the kind's glue records it (see loadKind.ts). */
export interface OutcomeSink {
  /** A query that answered: issued at `startNs`, `us` later the answer was in. */
  success(startNs: bigint, us: number): void;
  /** A query or connect that failed at `atNs`. */
  failure(atNs: bigint, error: unknown): void;
  /** True once the target cannot succeed (wrong credentials, unknown host): stop early. */
  hopeless(): boolean;
}
