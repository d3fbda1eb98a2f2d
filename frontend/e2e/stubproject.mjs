// Turns a copy of examples/trailhead into a project the console can "build": the
// repo's stub Gradle wrapper (internal/apktest/gradlew-stub) plus the APK it copies,
// a zip with a text manifest, which is what the simulated phone installs.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './harness.mjs';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A zip archive of stored (uncompressed) entries: name → string. */
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const fname = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fname.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fname.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fname, data);
    centrals.push(central, fname);
    offset += local.length + fname.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Writes gradlew and stub/ into projectDir so it builds `pkg` versionName/versionCode. */
export function makeStubProject(projectDir, { pkg = 'com.fixthis.demo', versionName = '2.5.0', versionCode = 250, delay = 0.02 } = {}) {
  copyFileSync(join(repoRoot, 'internal', 'apktest', 'gradlew-stub'), join(projectDir, 'gradlew'));
  chmodSync(join(projectDir, 'gradlew'), 0o755);
  const stub = join(projectDir, 'stub');
  mkdirSync(stub, { recursive: true });
  const manifest = `<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="${pkg}" android:versionCode="${versionCode}" android:versionName="${versionName}">
    <uses-sdk android:minSdkVersion="26" android:targetSdkVersion="34" />
    <application>
        <activity android:name=".MainActivity" android:exported="true">
            <intent-filter>
                <action android:name="android.intent.action.MAIN" />
                <category android:name="android.intent.category.LAUNCHER" />
            </intent-filter>
        </activity>
    </application>
</manifest>
`;
  writeFileSync(join(stub, 'app.apk'), zip({ 'AndroidManifest.xml': manifest, 'classes.dex': 'dex\n035\0', 'META-INF/CERT.RSA': 'certificate for key debug' }));
  writeFileSync(join(stub, 'applicationId'), pkg);
  writeFileSync(join(stub, 'versionName'), versionName);
  writeFileSync(join(stub, 'versionCode'), String(versionCode));
  writeFileSync(join(stub, 'delay'), String(delay));
}
