import { addInBuild } from "../../host/addinBuild";
import installSystemTools from "../../support/globalSetup";

/**
 * Before the browser project's files: Chromium (and redis-server) as for every project that needs them, and
 * the production build of the add-in that the preview serves. Built here, once, the build's minutes on a busy
 * machine count against no test's timeout; the test files find it ready (addInBuild keeps it by a hash of its
 * sources, so an unchanged tree costs only the hashing).
 */
export default async function globalSetup(): Promise<void> {
  installSystemTools();
  await addInBuild();
}
