// The table's sound switch (issue 39), pressed by a person's hand: the
// browser test and the desktop test use it on a table of their own.

// Presses the top bar's sound switch (♪) twice where the client says it
// is: the account must say off, then on again.
export async function switchSound(io) {
  const states = [];
  for (const want of [false, true]) {
    let control = null;
    for (const t0 = Date.now(); !control && Date.now() - t0 < 30_000; await io.sleep(200)) {
      control = (await io.read())?.controls?.find(c => c.name === 'sound' && c.does !== 'nothing');
    }
    if (!control) throw new Error(`[${io.name}] no sound switch on the table's top bar`);
    await io.tap(control.x + control.w / 2, control.y + control.h / 2);
    const t0 = Date.now();
    for (;;) {
      const now = await io.read();
      if (now?.sound?.on === want) break;
      if (Date.now() - t0 > 5_000) throw new Error(`[${io.name}] the sound switch did not turn ${want ? 'on' : 'off'}`);
      await io.sleep(100);
    }
    states.push(want ? 'on' : 'off');
  }
  return states.join(' then ');
}
