/** The shipped Grafana dashboard and Prometheus alert rules (deploy/), read as the tests need them. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
export const DASHBOARD = path.join(ROOT, 'deploy/grafana/dbprobe.json');
export const RULES = path.join(ROOT, 'deploy/prometheus/dbprobe-rules.yml');
export const RULE_TESTS = path.join(ROOT, 'deploy/prometheus/dbprobe-rules.test.yml');

interface Panel {
  title?: string;
  type: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
}

/** Each query of the dashboard: the panels' targets and the template variables' queries. */
export function dashboardQueries(): { where: string; expr: string }[] {
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
    panels: Panel[];
    templating: { list: { name: string; query?: string | { query?: string } }[] };
  };
  const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
  const fromPanels = panels.flatMap((p) =>
    (p.targets ?? []).flatMap((t) => (t.expr ? [{ where: `panel "${p.title}"`, expr: t.expr }] : [])),
  );
  const fromVariables = dashboard.templating.list.flatMap((v) => {
    const query = typeof v.query === 'string' ? v.query : v.query?.query;
    return query && v.name !== 'datasource' ? [{ where: `variable $${v.name}`, expr: query }] : [];
  });
  return [...fromPanels, ...fromVariables];
}

/** Each `expr:` of a rules file, one-line or a `|` block, with its alert's name. */
export function ruleExpressions(yaml = readFileSync(RULES, 'utf8')): { alert: string; expr: string }[] {
  const lines = yaml.split('\n');
  const found: { alert: string; expr: string }[] = [];
  let alert = '?';
  lines.forEach((line, i) => {
    const named = /^\s*- alert: (\S+)/.exec(line);
    if (named) alert = named[1]!;
    const expr = /^(\s*)expr: (.*)$/.exec(line);
    if (!expr) return;
    if (expr[2] !== '|') return void found.push({ alert, expr: expr[2]! });
    const indent = expr[1]!.length;
    const body: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.trim() !== '' && next.length - next.trimStart().length <= indent) break;
      body.push(next.trim());
    }
    found.push({ alert, expr: body.join(' ').trim() });
  });
  return found;
}
