import { describe, expect, test } from 'vitest';
import { aliases, join, lineColumn, snakeCase, terraformNames } from '../../src/fleet/terraform-json';

describe('terraform output JSON, in Terraform\'s names', () => {
  test('a field path reads as HCL writes it: dotted names, brackets for map keys and odd names', () => {
    expect(join('', 'auth')).toBe('auth');
    expect(join('auth', 'role_arn')).toBe('auth.role_arn');
    expect(join('labels', 'ring')).toBe('labels["ring"]');
    expect(join('auth.env', 'AWS_REGION')).toBe('auth.env["AWS_REGION"]');
    expect(join('extra', 'example.com/x')).toBe('extra["example.com/x"]');
  });

  test('the library\'s camelCase names become Terraform\'s snake_case in messages', () => {
    expect(snakeCase('clientKeyData')).toBe('client_key_data');
    expect(terraformNames('eks clusterName is required; set caData and roleArn')).toBe('eks cluster_name is required; set ca_data and role_arn');
    expect(aliases({ endpoint: ['server', 'host'] })).toEqual({ server: 'endpoint', host: 'endpoint' });
  });

  test('a position in the text is a line and column, both from 1', () => {
    const text = '{\n  "clusters": {\n    "value": [],\n  }\n}';
    expect(lineColumn(text, text.indexOf('}'))).toBe('4, column 3');
    expect(lineColumn(text, 0)).toBe('1, column 1');
  });
});
