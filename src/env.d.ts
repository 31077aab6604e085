/// <reference types="astro/client" />

/** A page's `import "<island>?words"`: that island's words (src/build/screen-words.ts). */
declare module "*?words" {}
