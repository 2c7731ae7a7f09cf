// Consequences along the exactness axis (docs/coverage.md): what is stored is what was sent.
import { expect } from '@playwright/test';
import { type Reply, resultOf, show } from '../support/http.ts';
import { changedAnother, step } from '../support/judged-users.ts';
import { observeUser } from '../support/read-back.ts';
import { rule, test } from '../support/rule.ts';
import { expectStored, givenUpdatedUser, givenUser, newUser, ownId } from '../support/users.ts';

/** The result of a write, or its status when it answered none (a refusal). */
const outcomeOf = (reply: Reply): string => {
  try {
    return resultOf(reply);
  } catch {
    return String(reply.status);
  }
};

/**
 * Texts an implementation might trim, fold or normalise; each must come back code unit for code unit.
 * The third: the class of text, the feature by which the model lets an implementation refuse it
 * (RES-USER-6: formats are open).
 */
const TEXTS: Array<[string, string, string]> = [
  ['  spaces at both ends  ', '\ttabs at both ends\t', 'white space at the ends'],
  ['MiXeD cAsE ÀÉÎ straße', 'UPPER lower ǅ', 'mixed case'],
  ['e\u0301cole (NFD)', '\u00e9cole (NFC)', 'combining characters'],
  ['\u212B angstrom sign, \uFB01 ligature', 'A\u030A and \u00C5', 'compatibility characters'],
];

test(
  ...rule('USR-EXACT-01', async (ctx) => {
    // An update alone first: updates that never take effect are that defect, not one of these texts.
    await givenUpdatedUser(ctx);
    for (const [i, [name, profession, feature]] of TEXTS.entries()) {
      const user = { ...newUser('exact'), name, profession };
      ownId(ctx, user.id);
      // Judged by the model: text stored otherwise is the defect the other rules name too (a form
      // decoder that keeps "+" for a space is USR-FORM-01's defect), not an assertion of this rule's own.
      const { reply } = await step(ctx.api, { kind: 'put', user }, { features: [`text: ${feature}`] });
      if (outcomeOf(reply) !== 'success') {
        // Formats are open (RES-USER-6): refused text is not stored, so there is nothing to compare.
        ctx.observe(`PUT of ${JSON.stringify(name)}: ${show(reply)}`);
        continue;
      }
      await expectStored(ctx.api, user, `after PUT of ${JSON.stringify(user)}`);
      // The same texts through POST, the other way round.
      const swapped = {
        id: user.id,
        name: (TEXTS[(i + 1) % TEXTS.length] as [string, string, string])[1],
        profession: name,
      };
      const posted = await ctx.api.post(swapped);
      if (outcomeOf(posted) !== 'success') continue;
      // A POST whose change another user carries: that defect (the rule's finding), not one of these texts.
      const read = await ctx.api.readUser(user.id);
      if (!(read?.name === swapped.name && read.profession === swapped.profession))
        if (await changedAnother(ctx.api, swapped, posted)) return;
      await expectStored(ctx.api, swapped, `after POST of ${JSON.stringify(swapped)}`);
      // The POST went round the model (its own assertions judge it): the model takes the user as served,
      // so that the next PUT's read-back does not take this user's change for its own.
      await observeUser(ctx.api, user.id);
    }
  }),
);

/** Lengths in code points: around common caps (255, 256, 1,024, 65,535). */
const LENGTHS = [255, 256, 257, 1024, 10_000, 65_536];
/** One, two and three UTF-8 bytes, and a character outside the BMP (two UTF-16 units). */
const PATTERN = ['a', 'é', '山', '😀'];

test(
  ...rule('USR-EXACT-02', async (ctx) => {
    // A user of its own first: a PUT that never stores is that defect, not one of these lengths.
    await givenUser(ctx);
    let longest = 0;
    const refused: number[] = [];
    for (const length of LENGTHS) {
      const text = Array.from({ length }, (_, i) => PATTERN[i % PATTERN.length]).join('');
      const user = { ...newUser('long'), name: text, profession: `p-${length}` };
      ownId(ctx, user.id);
      const reply = await ctx.api.put(user);
      if (outcomeOf(reply) !== 'success') {
        refused.push(length);
        continue;
      }
      const read = await ctx.api.readUser(user.id);
      expect(read, `user ${user.id} with a ${length}-character name is not served`).toBeDefined();
      expect(
        [...(read?.name ?? '')].length,
        `code points of a ${length}-character name accepted with success, as served back`,
      ).toBe(length);
      expect(read?.name === text, `the ${length}-character name is served back unchanged`).toBe(true);
      longest = length;
    }
    ctx.observe(
      `longest name accepted and stored whole: ${longest || 'none'} code points; refused: ${refused.join(', ') || 'none'}`,
    );
  }),
);
