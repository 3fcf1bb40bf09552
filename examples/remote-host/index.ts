import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
/** Changing the release replaces the marker: its delete command runs, then its create command. */
const release = config.get("release") ?? "1";
/** Set true to see how a failing command reports the host's error. */
const breakIt = config.getBoolean("breakIt") ?? false;

const kickstart = "/System/Library/CoreServices/RemoteManagement/ARDAgent.app/Contents/Resources/kickstart";

// The remote-management agent (port 3283): on with VNC legacy access and no permission prompts; off on destroy.
const remoteManagement = new ops.control.RemoteCommand("remote-management", {
  create: `sudo ${kickstart} -activate -configure -access -on -clientopts -setvnclegacy -vnclegacy yes -clientopts -setreqperm -reqperm no -restart -agent -privs -all`,
  delete: `sudo ${kickstart} -deactivate -configure -access -off`,
});

// A file written on create and removed on destroy; a new release replaces it.
const marker = new ops.control.RemoteCommand("release-marker", {
  create: 'mkdir -p /tmp/pulumi-ops && echo "release $RELEASE" > /tmp/pulumi-ops/release.txt && cat /tmp/pulumi-ops/release.txt',
  delete: "rm -f /tmp/pulumi-ops/release.txt",
  environment: { RELEASE: release },
  triggers: [release],
});

// A command built from a secret: the command and what it prints stay encrypted in state and hidden in the CLI,
// as with pulumi-command (no `secret: true` needed; it forces the same for commands without secrets).
const apiKey = config.getSecret("apiKey") ?? pulumi.secret("example-api-key-0000");
new ops.control.RemoteCommand(
  "api-key-file",
  {
    create: pulumi.interpolate`echo ${apiKey} > /tmp/pulumi-ops.key && cat /tmp/pulumi-ops.key`,
    delete: "rm -f /tmp/pulumi-ops.key",
  },
  { dependsOn: marker },
);

// The remote-desktop procedure (Screen Sharing), once the agent is on: it runs when the stack is applied (never at
// preview), signing in with the secret config ops:controlVncPassword; destroy closes the session.
export const desktop = new ops.control.RemoteDesktopSession(
  "kiosk",
  {
    host: config.get("desktopHost") ?? "kiosk.local",
    username: "ops",
    // A new value opens the session again (the old one is closed first: one session per host).
    triggers: config.get("desktopRelease") ? [config.get("desktopRelease")] : undefined,
  },
  { dependsOn: remoteManagement },
).screen;

if (breakIt) new ops.control.RemoteCommand("broken", { create: "mkdir /does/not/exist" });

export const markerOutput = marker.stdout;
