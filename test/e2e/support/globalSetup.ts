import type { Config } from "@jest/types";
import { SERVER_BUILD, addInBuild } from "../../host/addinBuild";
import installSystemTools from "../../support/globalSetup";

/**
 * Before the browser project's files: Chromium (and redis-server) as for every project that needs them, and
 * the production build of the add-in that the preview serves. Built here, once, the build's minutes on a busy
 * machine count against no test's timeout; the test files find it ready (addInBuild keeps it by a hash of its
 * sources, so an unchanged tree costs only the hashing).
 *
 * A whole run (no paths named) also makes the build for a server (SERVER_BUILD) that three files use, beside
 * the other: webpack keeps one core busy, and no test file runs yet to use the second. A run of chosen files
 * leaves it to the file that asks for it, so running one e2e file costs one build.
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  installSystemTools();
  const wholeRun = !globalConfig.testPathPatterns.isSet();
  await Promise.all([addInBuild(), ...(wholeRun ? [addInBuild(SERVER_BUILD)] : [])]);
}
