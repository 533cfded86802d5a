import fc from 'fast-check';

// Property tests draw new random cases on every run at a desk, where a failure is news to act on. In CI
// (CI=true) they replay one fixed seed, so whether a submission passes does not depend on the draw;
// RK_FC_SEED sets another seed anywhere (a failure prints the seed and path that reproduce it).
const seed = process.env.RK_FC_SEED ?? (process.env.CI ? '20261123' : undefined);
if (seed !== undefined) fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(seed) });
