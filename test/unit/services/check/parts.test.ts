// The check's small parts on their own: GitHub heading slugs, Retry-After, the host limiter.
import assert from 'node:assert/strict';
import { retryAfterSeconds } from '../../../../src/engine/web/link';
import { headingSlugs, slug } from '../../../../src/services/check/index';
import { HostLimiter } from '../../../../src/services/check/limiter';

describe('link check parts', function () {
  it('slugs headings as GitHub does, numbering repeats and skipping fenced code', function () {
    assert.equal(slug('Setting up: the CLI (v2)!'), 'setting-up-the-cli-v2');
    assert.equal(slug('Über naïve  Straße_x'), 'über-naïve--straße_x');
    const text = [
      '# Intro',
      '## Intro',
      '```',
      '# not a heading',
      '```',
      'Setext one',
      '==========',
      '### [Linked](http://x) `code` <b>bold</b>',
      '# Intro #',
    ].join('\n');
    assert.deepEqual(headingSlugs(text), [
      'intro',
      'intro-1',
      'setext-one',
      'linked-code-bold',
      'intro-2',
    ]);
  });

  it('reads Retry-After as seconds or an HTTP date, capped at a day, else no advice', function () {
    const now = Date.parse('2026-11-26T00:00:00Z');
    assert.equal(retryAfterSeconds('120', now), 120);
    assert.equal(retryAfterSeconds('Thu, 26 Nov 2026 00:00:30 GMT', now), 30);
    assert.equal(retryAfterSeconds('Wed, 25 Nov 2026 00:00:00 GMT', now), 0);
    assert.equal(retryAfterSeconds('99999999', now), 86_400);
    assert.equal(retryAfterSeconds('soon', now), undefined);
    assert.equal(retryAfterSeconds('-5', now), undefined);
    assert.equal(retryAfterSeconds(undefined, now), undefined);
  });

  it('keeps at most the per-host and global number of tasks open, hosts taking turns', async function () {
    const limiter = new HostLimiter(2, 3);
    const open = new Map<string, number>();
    let openAll = 0;
    let most = 0;
    const mostPerHost = new Map<string, number>();
    const order: string[] = [];
    const task = (host: string) => async () => {
      open.set(host, (open.get(host) ?? 0) + 1);
      openAll++;
      most = Math.max(most, openAll);
      mostPerHost.set(host, Math.max(mostPerHost.get(host) ?? 0, open.get(host)!));
      order.push(host);
      await new Promise((r) => setTimeout(r, 5));
      open.set(host, open.get(host)! - 1);
      openAll--;
    };
    await Promise.all([
      ...Array.from({ length: 6 }, () => limiter.run('a', task('a'))),
      ...Array.from({ length: 2 }, () => limiter.run('b', task('b'))),
    ]);
    assert.equal(most, 3);
    assert.deepEqual([...mostPerHost.values()], [2, 2]);
    // b's first task starts in the first round, not after all of a's
    assert.ok(order.indexOf('b') < 3, order.join(''));
    limiter.close();
  });

  it('holds a paused host back until the pause ends, and refuses a limit below 1', async function () {
    const limiter = new HostLimiter(1, 1);
    const start = Date.now();
    limiter.pause('a', start + 100);
    await limiter.run('a', () => Promise.resolve());
    assert.ok(Date.now() - start >= 95);
    limiter.close();
    assert.throws(() => new HostLimiter(0, 1), /at least 1/);
  });

  it('lets other hosts run while one is paused, and waits that queue up do not lengthen a pause', async function () {
    const limiter = new HostLimiter(1, 4);
    const start = Date.now();
    limiter.pause('a', start + 80);
    const done = new Map<string, number>();
    const task = (name: string) => () => {
      done.set(name, Date.now() - start);
      return new Promise<void>((r) => setTimeout(r, 5));
    };
    await Promise.all([
      limiter.run('a', task('a1')),
      limiter.run('a', task('a2')),
      limiter.run('a', task('a3')),
      limiter.run('b', task('b1')),
      limiter.run('b', task('b2')),
    ]);
    assert.ok(done.get('b1')! < 40 && done.get('b2')! < 40, JSON.stringify([...done]));
    assert.ok(done.get('a1')! >= 75 && done.get('a1')! < 150, JSON.stringify([...done]));
    // a's tasks run one at a time after the pause, in the order they asked
    assert.ok(done.get('a1')! < done.get('a2')! && done.get('a2')! < done.get('a3')!);
    limiter.close();
  });

  it('gives a cancelled wait up without running the task', async function () {
    const limiter = new HostLimiter(1, 1);
    let release!: () => void;
    const first = limiter.run('a', () => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    let ran = false;
    const second = limiter.run('a', () => Promise.resolve((ran = true)), controller.signal);
    controller.abort();
    await assert.rejects(second, { code: 'cancelled' });
    release();
    await first;
    assert.equal(ran, false);
    limiter.close();
  });
});
