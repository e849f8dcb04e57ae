import { CHROMIUM, REDIS_SERVER, ensureSystemTools } from "./systemTools";

/**
 * Runs once before any test file: the browser suites need Chromium and the relay suites a Redis server,
 * neither of which npm installs. Installing here, once, keeps parallel test files from racing apt-get.
 */
export default function globalSetup(): void {
  ensureSystemTools([CHROMIUM, REDIS_SERVER]);
}
