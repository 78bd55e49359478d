import assert from 'node:assert/strict';
import { TokenSet, tokenFromHeader, tokenProblem } from '../../../src/server/auth';

describe('server auth', () => {
  const a = 'alpha-token-0123456789';
  const b = 'bravo-token-0123456789-longer';

  it('reads the bare token and the Bearer form', () => {
    assert.equal(tokenFromHeader(a), a);
    assert.equal(tokenFromHeader(`Bearer ${a}`), a);
    assert.equal(tokenFromHeader(`bearer   ${a} `), a);
    assert.equal(tokenFromHeader(undefined), undefined);
    assert.equal(tokenFromHeader('   '), undefined);
    assert.equal(tokenFromHeader('Bearer '), undefined);
  });

  it('matches any configured token and nothing else', () => {
    const set = new TokenSet([a, b]);
    assert.equal(set.match(a), 0);
    assert.equal(set.match(`Bearer ${b}`), 1);
    assert.equal(set.match(undefined), -1);
    assert.equal(set.match(''), -1);
    assert.equal(set.match(a.slice(0, -1)), -1, 'shorter');
    assert.equal(set.match(`${a}x`), -1, 'longer');
    assert.equal(set.match(a.toUpperCase()), -1, 'case matters');
  });

  it('refuses an empty token list', () => {
    assert.throws(() => new TokenSet([]), /At least one/);
  });

  it('names weak or malformed tokens without echoing them', () => {
    assert.equal(tokenProblem(a), undefined);
    assert.match(tokenProblem('short') ?? '', /at least 16/);
    const spaced = tokenProblem('has a space in it, sadly');
    assert.match(spaced ?? '', /visible ASCII/);
    assert.ok(!(spaced ?? '').includes('sadly'));
    assert.match(tokenProblem('токен-токен-токен-токен') ?? '', /visible ASCII/);
  });
});
