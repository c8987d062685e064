import type fc from 'fast-check';

/** A model-based test's command that checks the system's invariants after it has run. */
export function withInvariants<Model extends object, Real>(
  command: fc.AsyncCommand<Model, Real>,
  assertInvariants: (model: Model, real: Real) => Promise<void>,
): fc.AsyncCommand<Model, Real> {
  return {
    check: (m) => command.check(m),
    run: async (m, r) => {
      await command.run(m, r);
      await assertInvariants(m, r);
    },
    toString: () => command.toString(),
  };
}
