/** The keys CLI as a program (its entry point is `keys.ts`). */
export { buildKeysProgram, type KeysProgramIo } from './keys-program.js';
