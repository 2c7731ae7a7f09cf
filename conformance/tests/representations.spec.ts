// SPEC.md "What the service does" (XML representations, form-encoded input) and the media types of
// section A's endpoint table.
import { expect } from '@playwright/test';
import { judgeBytes, RESULT_BYTES } from '../model/index.ts';
import {
  decodeBody,
  expectOn,
  mediaType,
  type Reply,
  randomId,
  show,
  userOf,
  xmlOf,
} from '../support/http.ts';
import { modelOf, observed } from '../support/judged.ts';
import { outcome } from '../support/judged-races.ts';
import { step } from '../support/judged-users.ts';
import { rule, SetupError, test } from '../support/rule.ts';
import {
  expectSameUser,
  givenUser,
  listed,
  type NewUser,
  newUser,
  ownId,
  unknownId,
} from '../support/users.ts';

test(
  ...rule('USR-XML-01', async (ctx) => {
    const user = await givenUser(ctx);
    const ghost = unknownId(ctx);
    const replies: Reply[] = [
      await ctx.api.get('/UserService/users'),
      await ctx.api.get(`/UserService/users/${user.id}`),
      await ctx.api.put(user),
      await ctx.api.post({ ...user, name: `${user.name}-2` }),
      await ctx.api.post({ ...user, id: ghost }),
      await ctx.api.send('OPTIONS', '/UserService/users'),
      await ctx.api.del(user.id),
      await ctx.api.del(ghost),
    ];
    const wrong = replies.filter((r) => mediaType(r)?.type !== 'application/xml').map(show);
    expect(wrong, 'answers whose media type is not application/xml').toEqual([]);
  }),
);

/** PUT, then read back by id and in the list: both documents well-formed, the text unchanged. */
async function roundTrip(ctx: Parameters<Parameters<typeof rule>[1]>[0], user: NewUser): Promise<void> {
  await givenUser(ctx, ctx.api, user);
  const reply = await ctx.api.get(`/UserService/users/${user.id}`);
  const doc = xmlOf(reply);
  expectOn(reply, doc.root.name).toBe('user');
  expectSameUser(userOf(doc.root), user, 'GET by id');
  const inList = await listed(ctx.api, user.id);
  expectOn(inList.reply, inList.users.length, `times user ${user.id} is listed readably`).toBe(1);
  expectSameUser(inList.users[0], user, 'in the list');
}

test(
  ...rule('USR-XML-02', async (ctx) => {
    await roundTrip(ctx, {
      id: randomId(),
      name: `a<b & c]]>d "q" 'a' > &amp; <!--x-->`,
      profession: `</user><user><id>1</id>&lt;`,
    });
  }),
);

test(
  ...rule('USR-XML-03', async (ctx) => {
    await roundTrip(ctx, {
      id: randomId(),
      name: 'Zoë Ångström 山田 太郎 😀',
      profession: 'Ingénieure — Ελληνικά ß',
    });
  }),
);

async function formRoundTrip(
  ctx: Parameters<Parameters<typeof rule>[1]>[0],
  raw: string,
  expected: { name: string; profession: string },
) {
  const id = randomId();
  ownId(ctx, id);
  const { reply, readBack, found } = await step(
    ctx.api,
    { kind: 'put', user: { id, ...expected } },
    { form: `id=${id}&${raw}` },
  );
  expectOn(reply, reply.status).toBeLessThan(500);
  // No user stored at all, for a defect the model names (PUT stores nothing): no text to compare.
  if (readBack?.[String(id)] === null && found.some((d) => d.level === 'MUST'))
    throw new SetupError(`PUT of user ${id}`, 'nothing stored', reply.exchange, found);
  expectSameUser(await ctx.api.readUser(id), { id, ...expected }, `form ${raw}`);
}

test(
  ...rule('USR-FORM-01', async (ctx) => {
    await formRoundTrip(ctx, 'name=Jean+Paul&profession=a+b+c', { name: 'Jean Paul', profession: 'a b c' });
  }),
);

test(
  ...rule('USR-FORM-02', async (ctx) => {
    await formRoundTrip(ctx, 'name=%2B1%26x%3Dy%25&profession=x%20y%2Bz', {
      name: '+1&x=y%',
      profession: 'x y+z',
    });
  }),
);

test(
  ...rule('USR-FORM-03', async (ctx) => {
    await formRoundTrip(ctx, 'name=%C3%A9t%C3%A9&profession=%E5%B1%B1%F0%9F%98%80', {
      name: 'été',
      profession: '山😀',
    });
  }),
);

test(
  ...rule('USR-RESULT-01', async (ctx) => {
    const user = newUser('bytes');
    ownId(ctx, user.id);
    const ghost = unknownId(ctx);
    // Each write of the spec, answered success and failure; what the answers mean is other rules' business.
    const answers: Array<[string, Reply]> = [
      ['PUT of a new id', await ctx.api.put(user)],
      ['PUT of an existing id', await ctx.api.put(user)],
      ['POST of an existing id', await ctx.api.post({ ...user, name: `${user.name}-2` })],
      ['POST of an unknown id', await ctx.api.post({ ...user, id: ghost })],
      ['DELETE of an existing id', await ctx.api.del(user.id)],
      ['DELETE of an unknown id', await ctx.api.del(ghost)],
    ];
    const exact = Object.values(RESULT_BYTES);
    for (const [what, reply] of answers) {
      // A result element with a word outside the spec's two is the model's finding (one defect with
      // every rule that meets the word); the bytes around a right word are the model's too (RES-RESULT-1),
      // under the signature the explorer names them by.
      const seen = observed(reply);
      if (seen.body.kind === 'result') {
        if (seen.body.word !== 'success' && seen.body.word !== 'failure') outcome(ctx.api, reply);
        else modelOf(ctx.api.log).add(judgeBytes(what, seen), reply);
        continue;
      }
      let body: string;
      try {
        body = decodeBody(reply);
      } catch (err) {
        body = (err as Error).message;
      }
      expectOn(
        reply,
        exact.includes(body),
        `${what}: the body must be exactly ${exact.join(' or ')} (clients of the original compare the string)`,
      ).toBe(true);
    }
  }),
);

test(
  ...rule('USR-XML-04', async (ctx) => {
    const reply = await ctx.api.get('/UserService/users');
    const declaration = xmlOf(reply).declaration;
    ctx.observe(
      `Content-Type: ${reply.headers['content-type'] ?? '(none)'}; XML declaration: ${declaration ? JSON.stringify(declaration) : '(none)'}`,
    );
  }),
);
