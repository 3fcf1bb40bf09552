/** The six emulators of test/programs/every-service (emulators/every-service.ts), with the fast test hooks on. */
import { startEveryService as start, type EveryService } from "../../emulators/every-service";

export { everyServiceConfig, type EveryService } from "../../emulators/every-service";

/** All six started; fast test hooks only where a scenario would otherwise wait (media processing). */
export function startEveryService(skillsDelete = true): Promise<EveryService> {
  return start({ fast: true, skillsDelete });
}
