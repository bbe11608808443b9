// A stable, readable dump of the AST.
//
// Commands are one node per line, children indented by two spaces. Words print
// inline as [part part ...]:
//   "text"   unquoted literal        'text'  quoted literal (C-style escapes)
//   dq(...)  double quotes           ~user   tilde prefix
//   ${x} ${#x} ${x:-[word]} ${x%%[word]} ...   parameter expansions
//   $(...) `...`  command substitution, its list on one line: list { a; b }
//   $(([expr]))   arithmetic
// Simple commands print inline too: simple NAME=[value] [word]... REDIRECT...
// Redirects: [FD]OP[target], here-documents add body=[...].
#include "syntax/ast_dump.h"

#include <string>
#include <vector>

namespace lash::syntax {

namespace {

struct Node {
  std::string label;
  std::vector<Node> children;
};

void escape_into(std::string& out, const std::string& s, char quote) {
  static const char hex[] = "0123456789abcdef";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    } else {
      out.push_back(ch);
    }
  }
}

void render_oneline(const Node& n, std::string& out) {
  out += n.label;
  if (n.children.empty()) return;
  out += " { ";
  for (size_t i = 0; i < n.children.size(); ++i) {
    if (i) out += "; ";
    render_oneline(n.children[i], out);
  }
  out += " }";
}

void render(const Node& n, int indent, std::string& out) {
  out.append(static_cast<size_t>(indent), ' ');
  out += n.label;
  out += '\n';
  for (const Node& c : n.children) render(c, indent + 2, out);
}

Node list_node(const ast::List& l, std::string label);
Node command_node(const ast::Command& c);
std::string word_text(const ast::Word& w);

void parts_text(const std::vector<ast::WordPart>& parts, std::string& out) {
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += ' ';
    const auto& v = parts[i].v;
    if (auto* lit = std::get_if<ast::Literal>(&v)) {
      char q = lit->quoted ? '\'' : '"';
      out += q;
      escape_into(out, lit->text, q);
      out += q;
    } else if (auto* dq = std::get_if<ast::DoubleQuoted>(&v)) {
      out += "dq(";
      parts_text(dq->parts, out);
      out += ')';
    } else if (auto* p = std::get_if<ast::Parameter>(&v)) {
      out += "${";
      if (p->op == ast::ParamOp::length) out += '#';
      out += p->name;
      const char* op = "";
      switch (p->op) {
        case ast::ParamOp::plain: case ast::ParamOp::length: break;
        case ast::ParamOp::use_default: op = "-"; break;
        case ast::ParamOp::assign_default: op = "="; break;
        case ast::ParamOp::error_if_unset: op = "?"; break;
        case ast::ParamOp::use_alternate: op = "+"; break;
        case ast::ParamOp::remove_small_suffix: op = "%"; break;
        case ast::ParamOp::remove_large_suffix: op = "%%"; break;
        case ast::ParamOp::remove_small_prefix: op = "#"; break;
        case ast::ParamOp::remove_large_prefix: op = "##"; break;
        case ast::ParamOp::substring: op = ":"; break;
        case ast::ParamOp::replace_first: op = "/"; break;
        case ast::ParamOp::replace_all: op = "//"; break;
        case ast::ParamOp::replace_prefix: op = "/#"; break;
        case ast::ParamOp::replace_suffix: op = "/%"; break;
        case ast::ParamOp::upper_first: op = "^"; break;
        case ast::ParamOp::upper_all: op = "^^"; break;
        case ast::ParamOp::lower_first: op = ","; break;
        case ast::ParamOp::lower_all: op = ",,"; break;
        case ast::ParamOp::toggle_first: op = "~"; break;
        case ast::ParamOp::toggle_all: op = "~~"; break;
        case ast::ParamOp::names_prefix: op = p->star ? "*" : "@"; break;
        case ast::ParamOp::keys: op = "[@]"; break;
      }
      if (p->index) out += "[" + word_text(*p->index) + "]";
      if (*op) {
        if (p->colon) out += ':';
        out += op;
        out += p->arg ? word_text(*p->arg) : std::string("[]");
      }
      out += '}';
    } else if (auto* cs = std::get_if<ast::CommandSubst>(&v)) {
      out += cs->backquoted ? "`" : "$(";
      if (cs->body) render_oneline(list_node(*cs->body, "list"), out);
      out += cs->backquoted ? "`" : ")";
    } else if (auto* a = std::get_if<ast::Arithmetic>(&v)) {
      out += "$((";
      out += a->expr ? word_text(*a->expr) : std::string("[]");
      out += "))";
    } else if (auto* t = std::get_if<ast::Tilde>(&v)) {
      out += '~';
      out += t->user;
    }
  }
}

std::string word_text(const ast::Word& w) {
  std::string out = "[";
  parts_text(w.parts, out);
  out += ']';
  return out;
}

std::string redirect_text(const ast::Redirect& r) {
  std::string out;
  if (r.fd >= 0) out += std::to_string(r.fd);
  switch (r.op) {
    case ast::RedirOp::in: out += "<"; break;
    case ast::RedirOp::out: out += ">"; break;
    case ast::RedirOp::append: out += ">>"; break;
    case ast::RedirOp::clobber: out += ">|"; break;
    case ast::RedirOp::read_write: out += "<>"; break;
    case ast::RedirOp::dup_in: out += "<&"; break;
    case ast::RedirOp::dup_out: out += ">&"; break;
    case ast::RedirOp::heredoc: out += "<<"; break;
    case ast::RedirOp::heredoc_strip: out += "<<-"; break;
    case ast::RedirOp::out_err: out += "&>"; break;
    case ast::RedirOp::append_err: out += "&>>"; break;
    case ast::RedirOp::herestring: out += "<<<"; break;
  }
  out += word_text(r.target);
  if (r.op == ast::RedirOp::heredoc || r.op == ast::RedirOp::heredoc_strip) {
    out += r.heredoc_quoted ? " quoted" : "";
    out += " body=";
    out += word_text(r.heredoc_body);
  }
  return out;
}

void add_list_items(const ast::List* l, Node& into);

Node pipeline_node(const ast::Pipeline& p) {
  if (!p.bang && p.commands.size() == 1) return command_node(p.commands[0]);
  Node n{p.bang ? "pipeline !" : "pipeline", {}};
  for (const auto& c : p.commands) n.children.push_back(command_node(c));
  return n;
}

Node and_or_node(const ast::AndOr& ao) {
  if (ao.rest.empty()) return pipeline_node(ao.first);
  Node n{"and_or", {}};
  n.children.push_back(pipeline_node(ao.first));
  for (const auto& [op, p] : ao.rest) {
    Node o{op == ast::AndOrOp::and_if ? "&&" : "||", {}};
    o.children.push_back(pipeline_node(p));
    n.children.push_back(std::move(o));
  }
  return n;
}

void add_list_items(const ast::List* l, Node& into) {
  if (!l) return;
  for (const auto& item : l->items) {
    if (item.background) {
      Node bg{"background", {}};
      bg.children.push_back(and_or_node(item.and_or));
      into.children.push_back(std::move(bg));
    } else {
      into.children.push_back(and_or_node(item.and_or));
    }
  }
}

Node list_node(const ast::List& l, std::string label) {
  Node n{std::move(label), {}};
  add_list_items(&l, n);
  return n;
}

Node sub_list(const char* label, const ast::ListPtr& l) {
  Node n{label, {}};
  add_list_items(l.get(), n);
  return n;
}

Node command_node(const ast::Command& c) {
  Node n;
  if (auto* s = std::get_if<ast::SimpleCommand>(&c.v)) {
    n.label = "simple";
    for (const auto& a : s->assignments) {
      n.label += " " + a.name + (a.subscript ? "[" + word_text(*a.subscript) + "]" : "") + (a.append ? "+=" : "=");
      if (a.compound) {
        n.label += "(";
        for (const auto& e : a.elements) n.label += " " + (e.key ? "[" + word_text(*e.key) + "]=" : "") + word_text(e.value);
        n.label += " )";
      } else {
        n.label += word_text(a.value);
      }
    }
    for (const auto& w : s->words) n.label += " " + word_text(w);
    for (const auto& r : s->redirects) n.label += " " + redirect_text(r);
  } else if (auto* g = std::get_if<ast::BraceGroup>(&c.v)) {
    n = sub_list("group", g->body);
  } else if (auto* sh = std::get_if<ast::Subshell>(&c.v)) {
    n = sub_list("subshell", sh->body);
  } else if (auto* ic = std::get_if<ast::IfClause>(&c.v)) {
    n.label = "if";
    for (const auto& b : ic->branches) {
      n.children.push_back(sub_list("cond", b.condition));
      n.children.push_back(sub_list("then", b.body));
    }
    if (ic->else_body) n.children.push_back(sub_list("else", ic->else_body));
  } else if (auto* lc = std::get_if<ast::LoopClause>(&c.v)) {
    n.label = lc->until ? "until" : "while";
    n.children.push_back(sub_list("cond", lc->condition));
    n.children.push_back(sub_list("do", lc->body));
  } else if (auto* fc = std::get_if<ast::ForClause>(&c.v)) {
    n.label = "for " + fc->var;
    if (fc->has_in) {
      n.label += " in";
      for (const auto& w : fc->words) n.label += " " + word_text(w);
    }
    n.children.push_back(sub_list("do", fc->body));
  } else if (auto* cc = std::get_if<ast::CaseClause>(&c.v)) {
    n.label = "case " + word_text(cc->subject);
    for (const auto& item : cc->items) {
      std::string label = "item";
      for (size_t i = 0; i < item.patterns.size(); ++i)
        label += (i ? " | " : " ") + word_text(item.patterns[i]);
      label += item.fallthrough ? " ;&" : "";
      label += item.test_next ? " ;;&" : "";
      n.children.push_back(sub_list("", item.body));
      n.children.back().label = std::move(label);
    }
  } else if (auto* ac = std::get_if<ast::ArithCommand>(&c.v)) {
    n.label = "arith " + word_text(ac->expr);
  } else if (auto* af = std::get_if<ast::ArithFor>(&c.v)) {
    n.label = "for (( " + word_text(af->init) + "; " + word_text(af->cond) + "; " + word_text(af->step) + " ))";
    n.children.push_back(sub_list("do", af->body));
  } else if (std::holds_alternative<ast::CondCommand>(c.v)) {
    n.label = "cond [[ ]]";
  } else if (auto* f = std::get_if<ast::FunctionDef>(&c.v)) {
    n.label = "function " + f->name;
    if (f->body) n.children.push_back(command_node(*f->body));
  }
  for (const auto& r : c.redirects) n.children.push_back(Node{"redirect " + redirect_text(r), {}});
  return n;
}

}  // namespace

std::string dump(const ast::List& program) {
  std::string out;
  render(list_node(program, "list"), 0, out);
  return out;
}

std::string dump_line(const ast::List& program) {
  std::string out;
  render_oneline(list_node(program, "list"), out);
  return out;
}

}  // namespace lash::syntax
