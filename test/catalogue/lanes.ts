/** Runs async jobs at most `width` at a time, in the order they were asked for. */
export function createLanes(width: number): { run<T>(job: () => Promise<T>): Promise<T> } {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    active -= 1;
    waiting.shift()?.();
  };
  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (active >= width) await new Promise<void>((resolve) => waiting.push(resolve));
      active += 1;
      try {
        return await job();
      } finally {
        release();
      }
    },
  };
}
