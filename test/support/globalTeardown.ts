import { closeWorkerResources } from "./workerScope";

/**
 * Runs once after the last test file. In a run in band the test files ran in this process, and the resources
 * they shared (./workerScope.ts) are still open: close them, or the process would not exit. With workers
 * there is nothing here to close (each worker closes its own when it ends).
 */
export default function globalTeardown(): Promise<void> {
  return closeWorkerResources();
}
