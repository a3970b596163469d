"""kg.exports GraphML and GEXF: the files NetworkX's writers made, written element by element; any
text reads back; a failed export leaves the old file."""
from __future__ import annotations

import json
import tracemalloc

import networkx as nx
import pytest
from networkx.readwrite.gexf import GEXFWriter

from kg.exports import write_gexf, write_graphml

#: (text given, text read back): XML escapes the first four; it cannot hold control characters but
#: tab, LF and CR, lone surrogates or U+FFFE/U+FFFF, written as U+FFFD (in a list's JSON, control
#: characters are JSON escapes and come back).
TEXTS = [
    ('a<b>&c"d\'e ]]> &amp; &#38;', 'a<b>&c"d\'e ]]> &amp; &#38;'),
    ("tab\tLF\nCR\rCRLF\r\n", "tab\tLF\nCR\rCRLF\r\n"),
    ("é中😀 \u2028\u0085\x7f\ue000", "é中😀 \u2028\u0085\x7f\ue000"),
    ("  spaces  ", "  spaces  "),
    ("bell\x07 vt\x0b ff\x0c esc\x1b", "bell\ufffd vt\ufffd ff\ufffd esc\ufffd"),
    ("lone \ud800 surrogate \ufffe\uffff", "lone \ufffd surrogate \ufffd\ufffd"),
]
READERS = [(write_graphml, nx.read_graphml), (write_gexf, nx.read_gexf)]


def varied_graph(directed: bool) -> nx.Graph:
    """Every kind of attribute the exports handle, in text XML can hold."""
    G = nx.DiGraph() if directed else nx.Graph()
    G.graph.update(kind="kg", n_papers=2, name="a & b")
    G.add_node("paper:1", kind="paper", label='x < y & "z"', abstract="line\nnext\ttab é中😀 \u2028", n_authors=2,
               truncated=True, score=0.5, names=["B", "A"], evidence=[{"b": 1, "a": "<é>"}], title=None, id="rec1",
               key="k1", empty="")
    G.add_node("author:2", kind="author", label=None, value="seven")
    G.add_node("method:3", kind="method", value=7, score=float("inf"), low=float("-inf"))
    G.add_node("track:4")
    G.add_edge("paper:1", "author:2", rel="authored_by", position=1, weight=2.5, label="first", start=3, type=None)
    G.add_edge("author:2", "method:3", rel="x", weight=None, papers=["paper:1"])
    G.add_edge("method:3", "track:4")
    return G


def flat(attrs: dict, rename: dict[str, str] | None = None) -> dict:
    """The attributes as the exports used to hand them to NetworkX: lists as JSON, no None."""
    rename = rename or {}
    return {rename.get(k, k): json.dumps(v, ensure_ascii=False, sort_keys=True) if isinstance(v, (list, dict)) else v
            for k, v in attrs.items() if v is not None}


def flat_graph(G: nx.Graph, rename: dict[str, str] | None = None) -> nx.Graph:
    H = G.__class__()
    H.graph.update(flat(G.graph))
    H.add_nodes_from((n, flat(d, rename)) for n, d in G.nodes(data=True))
    H.add_edges_from((u, v, flat(d, rename)) for u, v, d in G.edges(data=True))
    return H


@pytest.mark.parametrize("directed", [True, False])
def test_files_are_those_networkx_writers_made(directed, tmp_path):
    G = varied_graph(directed)
    graphml = "\n".join(nx.generate_graphml(flat_graph(G))) + "\n"
    assert write_graphml(G, tmp_path / "g.graphml").read_text(encoding="ascii") == graphml
    writer = GEXFWriter(flat_graph(G, {"id": "record_id", "start": "record_start"}), prettyprint=True)
    writer.xml.find("meta").attrib.pop("lastmodifieddate")
    assert write_gexf(G, tmp_path / "g.gexf").read_text(encoding="ascii") == str(writer) + "\n"


@pytest.mark.parametrize("write, read", READERS)
def test_any_text_reads_back(write, read, tmp_path):
    G = nx.DiGraph()
    for i, (text, _) in enumerate(TEXTS):
        G.add_node(f"n{i}:{text}", label=text, text=text, names=[text])
        G.add_edge(f"n{i}:{text}", "hub", name=text)
    path = write(G, tmp_path / "g.xml")
    assert path.read_bytes().isascii()
    H = read(path)
    for i, (text, back) in enumerate(TEXTS):
        node = H.nodes[f"n{i}:{back}"]
        assert node["label"] == node["text"] == back and H.edges[f"n{i}:{back}", "hub"]["name"] == back
        assert json.loads(node["names"]) == [text if "\x07" in text else back]


def test_mixed_types_read_back(tmp_path):
    """GraphML keys a name once per type (as NetworkX); GEXF has one type a name: `double` for ints
    and floats, else `string` (NetworkX took the first value's and could not read its file back)."""
    G = nx.Graph()
    G.add_node("a", x=1, y=1)
    G.add_node("b", x="one", y=2.5)
    H = nx.read_graphml(write_graphml(G, tmp_path / "g.graphml"))
    assert [H.nodes[n]["x"] for n in "ab"] == [1, "one"] and [H.nodes[n]["y"] for n in "ab"] == [1, 2.5]
    assert type(H.nodes["a"]["y"]) is int
    K = nx.read_gexf(write_gexf(G, tmp_path / "g.gexf"))
    assert [K.nodes[n]["x"] for n in "ab"] == ["1", "one"] and [K.nodes[n]["y"] for n in "ab"] == [1.0, 2.5]


class Unprintable:
    """A node key whose text fails: the export stops halfway through the nodes."""

    def __str__(self) -> str:
        raise RuntimeError("interrupted")


@pytest.mark.parametrize("write, read", READERS)
def test_a_failed_export_keeps_the_old_file(write, read, tmp_path):
    target = write(varied_graph(True), tmp_path / "g.xml")
    before = target.read_bytes()
    G = nx.path_graph(1000)
    G.add_node(Unprintable())
    with pytest.raises(RuntimeError):
        write(G, target)
    G.add_node("bad", value={1, 2})
    with pytest.raises(TypeError, match="'value'"):
        write(G, target)
    assert target.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["g.xml"]


@pytest.mark.parametrize("write, read", READERS)
def test_memory_does_not_grow_with_the_document(write, read, tmp_path):
    G = nx.DiGraph()
    G.add_nodes_from((f"n{i}", {"text": "x" * 1000, "names": ["a"] * 10}) for i in range(2000))
    write(G, tmp_path / "warm-up.xml")  # first calls allocate caches once (regex, encoders)
    tracemalloc.start()
    try:
        path = write(G, tmp_path / "g.xml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert path.stat().st_size > 2_000_000 and peak < 200_000
    assert read(path).number_of_nodes() == 2000


def test_writers_take_a_path_or_an_open_binary_file(tmp_path):
    """As NetworkX's writers do: the same bytes into a file object as into a path."""
    import io

    from kg.exports import write_gexf, write_graphml

    G = nx.Graph(name="é")
    G.add_edge("a", "b", weight=1.5, papers=["p1"])
    for write in (write_graphml, write_gexf):
        buffer = io.BytesIO()
        assert write(G, buffer) is None and not buffer.closed
        assert write(G, tmp_path / "g") == tmp_path / "g"
        assert buffer.getvalue() == (tmp_path / "g").read_bytes()


@pytest.mark.parametrize("write, read", READERS)
def test_mention_records_are_written_as_their_json_shape(write, read, tmp_path):
    """Issue 24: an edge's evidence (a tuple of MethodMention) is written as `mention_to_dict` gives
    each record, the same bytes as the list of dicts it replaced, and reads back as that JSON."""
    from kg.records import MethodMention, mention_to_dict

    evidence = (MethodMention("QAT", 7, 10, 'We use QAT <"&">.'), MethodMention("Q-é", 300, 303, "x" * 300 + "Q-é"))
    G, H = nx.DiGraph(), nx.DiGraph()
    G.add_edge("paper:1", "method:qat", rel="mentions", count=2, evidence=evidence)
    H.add_edge("paper:1", "method:qat", rel="mentions", count=2, evidence=[mention_to_dict(m) for m in evidence])
    assert write(G, tmp_path / "records").read_bytes() == write(H, tmp_path / "dicts").read_bytes()
    stored = read(tmp_path / "records").edges["paper:1", "method:qat"]["evidence"]
    assert json.loads(stored) == [mention_to_dict(m) for m in evidence]
