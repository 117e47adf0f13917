// Found by svelte-check and by the Vite plugin (the renderer's root is this folder).
// Svelte 5 strips TypeScript itself, so no preprocessor is needed.
export default {
  compilerOptions: { runes: true },
};
