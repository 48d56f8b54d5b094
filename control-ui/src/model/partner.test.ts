import { describe, expect, it } from 'vitest';
import { countryOptions, fieldErrorsOf, formatDuration, partnerSignInWords, safeReturnPath } from './partner.ts';

describe('partner model', () => {
  it('maps validation issues to fields, first message wins, invitee as one field', () => {
    expect(
      fieldErrorsOf({
        issues: [
          { path: ['username'], message: 'This field is required' },
          { path: ['username'], message: 'Use at least 3 characters' },
          { path: ['invitee', 'email'], message: 'Enter a valid email address' },
        ],
      }),
    ).toEqual({ username: 'This field is required', invitee: 'Enter a valid email address' });
    expect(fieldErrorsOf(undefined)).toEqual({});
  });

  it('words sign-in outcomes as partner spec §8 does', () => {
    expect(partnerSignInWords('CODE_INVALID', 'x')).toBe('The code you entered is incorrect. Please try again.');
    expect(partnerSignInWords('LINK_INVALID', 'x')).toBe('Your link has expired. Please send another.');
    expect(partnerSignInWords('RATE_LIMITED', 'x')).toBe('Login emails sent too quickly. Please wait a minute and try again.');
    expect(partnerSignInWords('INTERNAL', 'x')).toBe('Sign-in failed. Please try again. (Error code: INTERNAL)');
    expect(partnerSignInWords(null, 'x')).toBe('Sign-in failed. Please try again. (Error code: UNKNOWN)');
  });

  it('returns only to paths of this app', () => {
    expect(safeReturnPath('/partner/settings')).toBe('/partner/settings');
    expect(safeReturnPath('//evil.example')).toBe('/');
    expect(safeReturnPath('https://evil.example')).toBe('/');
    expect(safeReturnPath(null)).toBe('/');
  });

  it('names countries from the ISO list and formats durations', () => {
    const countries = countryOptions();
    expect(countries.length).toBeGreaterThan(200);
    expect(countries.find((c) => c.value === 'DE')?.label).toBe('Germany');
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(3900)).toBe('1 h 05 min');
  });
});
