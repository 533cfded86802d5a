/**
 * What the options form (`OptionsForm.tsx`) imports from here: the type of a function that sends a
 * command. The page's parts live in their folders (docs/web.md, "Folders").
 */
export type { Send } from './screens/chrome.js';
