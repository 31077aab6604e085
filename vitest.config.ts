import { defineConfig } from "vitest/config";

// Runs under Bun (`bun --bun x vitest run`) so tests get bun:sqlite and Bun's APIs.
// Bun lacks the child-process channel Vitest's default "forks" pool needs, so use threads.
export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/bff/**/*.test.ts"],
    pool: "threads",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
