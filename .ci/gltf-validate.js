// Validates every .glb/.gltf named on the command line with the Khronos glTF validator
// (npm gltf-validator; NODE_PATH points at its install) and exits 1 if any has an error or a
// skin warning (NODE_SKINNED_MESH_WITHOUT_SKIN and the other NODE_SKIN*/SKIN_* codes).
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');
(async () => {
  let bad = 0;
  for (const f of process.argv.slice(2)) {
    const data = new Uint8Array(fs.readFileSync(f));
    const report = await validator.validateBytes(data, {
      uri: path.basename(f),
      externalResourceFunction: (uri) => new Promise((res, rej) => {
        try { res(new Uint8Array(fs.readFileSync(path.join(path.dirname(f), decodeURIComponent(uri))))); } catch (e) { rej(e.toString()); }
      }),
    });
    const i = report.issues;
    console.log(`${f}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos`);
    for (const m of i.messages) if (m.severity <= 1) console.log(`  ${m.severity == 0 ? 'error' : 'warning'} ${m.code} ${m.pointer || ''}: ${m.message}`);
    // A skinned mesh must carry its skin (issue 31): skin warnings fail the run too.
    const skin = i.messages.filter((m) => /^(NODE_SKIN|SKIN_)/.test(m.code));
    if (i.numErrors > 0 || skin.length > 0) bad++;
  }
  process.exit(bad ? 1 : 0);
})();
