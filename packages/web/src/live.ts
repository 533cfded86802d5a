/** What a command came to, as the forms of `OptionsForm.tsx` import it: the store declares it (store/). */
export type { SendResult } from './store/encounter-store.js';
