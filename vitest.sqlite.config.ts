import { configDefaults, defineConfig } from "vitest/config";
import { apiTestIsolation, postgresOnlyTests, sharedTestSettings } from "./vitest.config.ts";

/**
 * The SQLite half of the run, `--project sqlite`: the server's tests ("sqlite (api)") and
 * the unit tests ("sqlite (unit)"). Two projects because only the server's tests share
 * their modules between files; the unit tests replace modules (`vi.mock`) and browser
 * globals per file, so each of their files keeps its own.
 */
export default defineConfig({
  test: {
    ...sharedTestSettings,
    name: "sqlite",
    env: { KANNT_TEST_DATABASE: "sqlite" },
    projects: [
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/bff/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...postgresOnlyTests],
          ...apiTestIsolation,
        },
      },
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
    ],
  },
});
