import { Lexer, type Token, type Tokens } from 'marked';
import type { ComponentChildren, VNode } from 'preact';
import { Visible } from './visible-text.js';

/**
 * Markdown from the model rendered as elements built here, never as HTML: marked only splits
 * the text into tokens; raw HTML in them is shown as text, links go only to http(s) and
 * mailto, images are shown as their link, and every string goes through {@link Visible}.
 */
export function Markdown({ text }: { readonly text: string }): VNode {
  let tokens: Token[];
  try {
    tokens = Lexer.lex(text, { gfm: true, breaks: false });
  } catch {
    return (
      <p>
        <Visible text={text} />
      </p>
    );
  }
  return <div class="md">{blocks(tokens)}</div>;
}

/** Only these link targets are clickable; anything else (javascript:, data:, relative) is shown as text. */
export function safeHref(href: string): string | null {
  try {
    const u = new URL(href);
    return u.protocol === 'http:' || u.protocol === 'https:' || u.protocol === 'mailto:' ? u.href : null;
  } catch {
    return null;
  }
}

function blocks(tokens: readonly Token[]): ComponentChildren[] {
  return tokens.map((t, i) => block(t, i));
}

function block(t: Token, key: number): ComponentChildren {
  switch (t.type) {
    case 'space':
    case 'def':
      return null;
    case 'heading': {
      const h = t as Tokens.Heading;
      const Tag = `h${Math.min(6, Math.max(3, h.depth + 2))}` as 'h3';
      return <Tag key={key}>{inline(h.tokens)}</Tag>;
    }
    case 'paragraph':
      return <p key={key}>{inline((t as Tokens.Paragraph).tokens)}</p>;
    case 'text': {
      const x = t as Tokens.Text;
      return <p key={key}>{x.tokens ? inline(x.tokens) : <Visible text={x.text} />}</p>;
    }
    case 'code': {
      const c = t as Tokens.Code;
      return (
        <pre key={key} class="code">
          <code>
            <Visible text={c.text} />
          </code>
        </pre>
      );
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks((t as Tokens.Blockquote).tokens)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'list': {
      const l = t as Tokens.List;
      const items = l.items.map((it, j) => <li key={j}>{it.tokens.map((x, k) => (x.type === 'text' ? inline((x as Tokens.Text).tokens ?? [x]) : block(x, k)))}</li>);
      return l.ordered ? (
        <ol key={key} start={typeof l.start === 'number' ? l.start : 1}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table': {
      const tb = t as Tokens.Table;
      return (
        <div key={key} class="table-wrap">
          <table>
            <thead>
              <tr>
                {tb.header.map((c, j) => (
                  <th key={j} scope="col">
                    {inline(c.tokens)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {tb.rows.map((r, j) => (
                <tr key={j}>
                  {r.map((c, k) => (
                    <td key={k}>{inline(c.tokens)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    }
    case 'html':
      return (
        <p key={key}>
          <Visible text={(t as Tokens.HTML).raw} />
        </p>
      );
    default:
      return (
        <p key={key}>
          <Visible text={t.raw} />
        </p>
      );
  }
}

function inline(tokens: readonly Token[]): ComponentChildren[] {
  return tokens.map((t, key) => {
    switch (t.type) {
      case 'text': {
        const x = t as Tokens.Text;
        return x.tokens && x.tokens.length > 0 ? <span key={key}>{inline(x.tokens)}</span> : <Visible key={key} text={x.text} />;
      }
      case 'escape':
        return <Visible key={key} text={(t as Tokens.Escape).text} />;
      case 'strong':
        return <strong key={key}>{inline((t as Tokens.Strong).tokens)}</strong>;
      case 'em':
        return <em key={key}>{inline((t as Tokens.Em).tokens)}</em>;
      case 'del':
        return <del key={key}>{inline((t as Tokens.Del).tokens)}</del>;
      case 'codespan':
        return (
          <code key={key}>
            <Visible text={(t as Tokens.Codespan).text} />
          </code>
        );
      case 'br':
        return <br key={key} />;
      case 'link': {
        const l = t as Tokens.Link;
        const href = safeHref(l.href);
        if (!href) return <Visible key={key} text={l.raw} />;
        return (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
            {inline(l.tokens)}
          </a>
        );
      }
      case 'image': {
        // Never loaded (no request leaves the page): shown as its link.
        const im = t as Tokens.Image;
        const href = safeHref(im.href);
        const label = `[image: ${im.text || im.href}]`;
        return href ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow">
            <Visible text={label} />
          </a>
        ) : (
          <Visible key={key} text={label} />
        );
      }
      default:
        return <Visible key={key} text={t.raw} />;
    }
  });
}
