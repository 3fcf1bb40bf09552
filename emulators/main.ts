/**
 * `npm run emulators`: the emulators standalone on loopback, until Ctrl-C. Prints each base URL and the
 * environment variables that point a program (or `pulumi` itself) at it.
 */
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "./index";

async function main(): Promise<void> {
  const edge = await new EdgeEmulator({ port: Number(process.env.EDGE_EMULATOR_PORT ?? 8787) }).start();
  console.log(`edge network API emulator: ${edge.url}/client/v4`);
  console.log("point a program at it:");
  console.log(`  export EDGE_BASE_URL=${edge.url}`);
  console.log(`  export EDGE_API_TOKEN=${DEMO_TOKEN}`);
  console.log(`  export EDGE_ACCOUNT_ID=${DEMO_ACCOUNT}`);
  console.log(`test hooks: ${edge.url}/__emulator/{log,reset,faults,clock}`);
  const stop = async () => {
    await edge.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

void main();
