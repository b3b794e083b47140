// Preloaded (`node --import`) into a test's child process: shifts the whole process's wall clock by
// TEST_SHIFT_CLOCK_MS (negative: behind), as a machine whose clock disagrees with the database's would be. Every
// reader of the time sees it: Date.now(), new Date(), the job library, the logger. Timers and performance.now()
// keep running at the real pace, as they do on such a machine.
const offsetMs = Number(process.env.TEST_SHIFT_CLOCK_MS ?? 0);
const RealDate = Date;

class ShiftedDate extends RealDate {
  constructor(...args: [] | ConstructorParameters<typeof Date>) {
    if (args.length === 0) super(RealDate.now() + offsetMs);
    else super(...(args as ConstructorParameters<typeof Date>));
  }

  static override now(): number {
    return RealDate.now() + offsetMs;
  }
}

if (offsetMs !== 0) globalThis.Date = ShiftedDate as DateConstructor;
