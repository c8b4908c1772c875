/**
 * How long a place that was asked to cancel (a probe thread, a remote runner through its cancel route)
 * may take to answer with its partial result before it is given up on (the thread terminated, the
 * runner hung up on), keeping then only what its events carried. One value for every place: the
 * engine stops within a second of a cancel; the rest covers sending the result back, over a network
 * for a runner, and the figures a load level makes only once it ends.
 */
export const CANCEL_GRACE_MS = 1_500;
