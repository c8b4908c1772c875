/** What an ORM layer started on a driver's connection offers the layered driver. */
export interface LayerSession {
  /** Runs the workload through the layer's raw-SQL path; returns the layer's own promise. */
  query(workload: string): PromiseLike<unknown>;
  /** Lets the layer go (its own client state only: the driver's connection is closed after it). */
  close(): Promise<void>;
}

/** Starts a layer over one open connection's npm client, for the driver `driver`. */
export type LayerStarter = (driver: string, client: unknown) => Promise<LayerSession>;
