"""kg.graph.build and kg.graph.aliases on small hand-built records whose graphs are computed by hand."""
from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest

from kg.graph.aliases import load_aliases, possible_duplicates, similarity_reason
from kg.errors import InputError, ArgumentError
from kg.graph import Cuts, build_graph, coauthor_graph, topic_graph
from kg.names import author_key
from kg.records import Author, Method, MethodMention, Paper, Source, Track, mention_to_dict


def paper(key, names, track=None, truncated=False, **kw):
    return Paper(key=key, authors=tuple(Author(n, author_key(n)) for n in names), abstract=f"abstract {key}",
                 text=f"text {key}", track=track, authors_truncated=truncated, **kw)


def method(key, label, alt=(), sentence=None):
    mentions = () if sentence is None else (MethodMention(label, sentence.find(label),
                                                          sentence.find(label) + len(label), sentence),)
    return Method(key=key, label=label, alt_labels=tuple(alt), mentions=mentions)


LLM = Track("Deep Learning", "Large Language Models")
VISION = Track("Computer Vision")  # one level: no track node


@pytest.fixture()
def papers():
    return [
        paper("p1", ["Ann Lee", "Bo Chen", "Cy Wu"], LLM, source=Source("a.txt", 3)),
        paper("p2", ["ann lee", "Bo Chen"], VISION),
        paper("p3", ["Dan Ma"]),
        paper("p4", ["Eve Xu", "Fay Yu"], VISION, truncated=True),
    ]


@pytest.fixture()
def methods():
    return {
        "p1": (method("x", "Xnet", sentence="We use Xnet."), method("y", "Yformer", ("YF",), "We propose Yformer.")),
        "p2": (method("x", "XNet", ("XN",)), method("y", "Yformer"), method("z", "Zed")),
        "p3": (method("z", "Zed"),),
    }


def test_nodes_attributes_and_order(papers, methods):
    G = build_graph(papers, methods)
    assert G.graph["kind"] == "kg"
    assert list(G)[:4] == ["paper:p1", "paper:p2", "paper:p3", "paper:p4"]
    assert [n for n in G if n.startswith("author:")] == [
        "author:ann-lee", "author:bo-chen", "author:cy-wu", "author:dan-ma", "author:eve-xu", "author:fay-yu"]
    p1 = G.nodes["paper:p1"]
    assert p1["label"] == "Yformer"  # the method it proposes, not its first one
    assert p1["source_file"] == "a.txt" and p1["source_line"] == 3 and p1["n_authors"] == 3
    assert "title" not in p1 and "id" not in p1  # None is never stored
    assert G.nodes["paper:p2"]["label"] == "Xnet"  # no "we propose": first method, node's label
    assert G.nodes["paper:p3"]["label"] == "Zed"
    assert G.nodes["paper:p4"]["label"] == "Eve Xu et al."
    assert G.nodes["author:ann-lee"] == {"kind": "author", "label": "Ann Lee", "names": ["Ann Lee", "ann lee"]}
    assert G.nodes["method:x"] == {"kind": "method", "label": "Xnet", "alt_labels": ["XN", "XNet"]}
    assert G.nodes["track:deep-learning--large-language-models"] == {
        "kind": "track", "label": "Deep Learning · Large Language Models", "area": "Deep Learning",
        "subarea": "Large Language Models"}
    assert "track:computer-vision" not in G and G.nodes["area:computer-vision"]["kind"] == "area"
    assert G.graph["n_papers"] == 4 and G.graph["n_truncated"] == 1


def test_edges(papers, methods):
    G = build_graph(papers, methods)
    assert G.edges["paper:p2", "author:ann-lee"] == {"rel": "authored_by", "position": 1, "name": "ann lee"}
    assert G.edges["paper:p1", "track:deep-learning--large-language-models"]["rel"] == "in_track"
    assert G.edges["track:deep-learning--large-language-models", "area:deep-learning"]["rel"] == "broader"
    assert G.edges["paper:p2", "area:computer-vision"]["rel"] == "in_track"
    assert not [v for _, v, r in G.out_edges("paper:p3", data="rel") if r == "in_track"]  # never guessed
    mention = G.edges["paper:p1", "method:y"]
    assert mention["rel"] == "mentions" and mention["count"] == 1
    assert mention["evidence"] == (MethodMention("Yformer", 11, 18, "We propose Yformer."),)
    assert [mention_to_dict(m) for m in mention["evidence"]] == [
        {"text": "Yformer", "start": 11, "end": 18, "sentence": "We propose Yformer."}]


def test_equal_evidence_texts_and_offsets_are_one_object(papers):
    """A method quoted in many papers is stored once per distinct text and offset (memory at 100k papers)."""
    sentence = "x" * 300 + " We use Xnet."  # offsets above 256: ints Python does not share by itself
    quoted = {key: (method("x", "".join(["X", "net"]), sentence=sentence),) for key in ("p1", "p2")}  # two str objects
    G = build_graph(papers, quoted)
    first, second = (G.edges[f"paper:{key}", "method:x"]["evidence"][0] for key in ("p1", "p2"))
    assert first == second == MethodMention("Xnet", 308, 312, sentence)
    assert first.text is second.text and first.start is second.start and first.end is second.end


def test_evidence_is_a_tuple_of_slotted_frozen_records_that_pickle(papers, methods):
    """Issue 24: millions of mentions at scale, so each is a slotted record (no per-instance dict),
    frozen, and travels between processes (extraction workers, the build's writers) by pickle."""
    evidence = build_graph(papers, methods).edges["paper:p1", "method:x"]["evidence"]
    assert type(evidence) is tuple and [type(m) for m in evidence] == [MethodMention]
    assert not hasattr(evidence[0], "__dict__")
    with pytest.raises(FrozenInstanceError):
        evidence[0].text = "Ynet"
    assert pickle.loads(pickle.dumps(evidence)) == evidence
    with pytest.raises(TypeError, match="not JSON serializable"):
        mention_to_dict({"text": "Xnet"})


def test_label_ties_go_to_first_spelling_and_most_frequent_wins():
    G = build_graph([paper("a", ["zhou Xun"]), paper("b", ["Zhou Xun"]), paper("c", ["Zhou Xun"])])
    assert G.nodes["author:zhou-xun"]["label"] == "Zhou Xun"
    G = build_graph([paper("a", ["zhou Xun"]), paper("b", ["Zhou Xun"])])
    assert G.nodes["author:zhou-xun"]["label"] == "zhou Xun"
    assert "author:li-x" in build_graph([paper("a", ["Li X", "Li Xiang"])])  # never collapsed


def test_same_input_same_graph(papers, methods):
    a, b = build_graph(papers, methods), build_graph(list(papers), dict(methods))
    assert list(a.nodes(data=True)) == list(b.nodes(data=True))
    assert list(a.edges(data=True)) == list(b.edges(data=True))


def test_duplicate_paper_kept_once(papers):
    G = build_graph(papers + [papers[0]])
    assert G.graph["n_papers"] == 4 and G.graph["duplicate_papers"] == 1


def test_coauthor_full_and_fractional(papers):
    G = build_graph(papers)
    full = coauthor_graph(G)
    assert full.edges["author:ann-lee", "author:bo-chen"] == {
        "count": 2, "weight": 2, "papers": ["paper:p1", "paper:p2"]}
    assert full.edges["author:ann-lee", "author:cy-wu"]["weight"] == 1
    assert full.nodes["author:ann-lee"] == {"kind": "author", "label": "Ann Lee", "papers": 2}
    assert full.degree("author:dan-ma") == 0  # isolated, still there
    frac = coauthor_graph(G, counting="fractional")
    # p1 has 3 authors: 1/2 per pair; p2 has 2: 1 per pair.
    assert frac.edges["author:ann-lee", "author:bo-chen"]["weight"] == pytest.approx(1.5)
    assert frac.edges["author:bo-chen", "author:cy-wu"]["weight"] == pytest.approx(0.5)
    # Fractional strength = number of multi-author papers of the author.
    assert frac.degree("author:ann-lee", weight="weight") == pytest.approx(2.0)
    assert frac.degree("author:cy-wu", weight="weight") == pytest.approx(1.0)
    with pytest.raises(ArgumentError):
        coauthor_graph(G, counting="harmonic")


def test_coauthor_thresholds_and_cut(papers):
    G = build_graph(papers)
    P = coauthor_graph(G, top_n=2)
    assert sorted(P) == ["author:ann-lee", "author:bo-chen"]
    assert P.graph["cut"] == {"nodes_total": 6, "nodes_kept": 2, "edges_total": 4, "edges_kept": 1,
                              "min_weight": 0, "min_papers": 1, "top_n": 2, "top_links": None}
    P = coauthor_graph(G, min_papers=2)
    assert sorted(P) == ["author:ann-lee", "author:bo-chen"]
    P = coauthor_graph(G, min_weight=2)
    assert P.number_of_nodes() == 6 and list(P.edges) == [("author:ann-lee", "author:bo-chen")]
    # ties in top_n are broken by key: all four one-paper authors tie, the first by key wins
    assert sorted(coauthor_graph(G, top_n=3)) == ["author:ann-lee", "author:bo-chen", "author:cy-wu"]
    # top_links keeps the heaviest links (ties by key) and every node
    P = coauthor_graph(G, top_links=2)
    assert P.number_of_nodes() == 6 and list(P.edges(data="weight"))[0] == ("author:ann-lee", "author:bo-chen", 2)
    assert P.number_of_edges() == 2 and P.graph["cut"]["edges_kept"] == 2 and P.graph["cut"]["top_links"] == 2


def test_cuts_object_and_keywords_cut_alike(papers, methods):
    G = build_graph(papers, methods)
    cuts = Cuts(min_papers=2, top_links=1)
    assert coauthor_graph(G, cuts=cuts).graph["cut"] == coauthor_graph(G, min_papers=2, top_links=1).graph["cut"]
    assert list(topic_graph(G, cuts=cuts, top_n=1)) == list(topic_graph(G, min_papers=2, top_links=1, top_n=1))
    assert coauthor_graph(G, cuts=cuts, min_papers=1).graph["cut"]["min_papers"] == 1  # a keyword changes a field
    with pytest.raises(FrozenInstanceError):
        cuts.top_n = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        coauthor_graph(G, top_m=3)


def test_cuts_of_a_whole_projection_equal_projecting_again(papers, methods):
    G = build_graph(papers, methods)
    for counting in ("full", "fractional"):
        whole = coauthor_graph(G, counting=counting)
        for cuts in ({"top_n": 2}, {"min_weight": 2}, {"top_links": 2}, {}):
            a, b = coauthor_graph(G, counting=counting, **cuts), coauthor_graph(G, counting=counting, within=whole, **cuts)
            assert (a.graph, list(a.nodes(data=True)), list(a.edges(data=True))) == \
                (b.graph, list(b.nodes(data=True)), list(b.edges(data=True)))
    for whole in (topic_graph(G), topic_graph(G, normalize="association")):
        for normalize in (None, "association"):
            a = topic_graph(G, normalize=normalize, top_n=2)
            b = topic_graph(G, normalize=normalize, top_n=2, within=whole)
            assert (a.graph, list(a.nodes(data=True)), list(a.edges(data=True))) == \
                (b.graph, list(b.nodes(data=True)), list(b.edges(data=True)))


def test_within_must_be_a_whole_projection_of_the_same_kind(papers, methods):
    G = build_graph(papers, methods)
    with pytest.raises(ArgumentError, match="whole coauthor projection"):
        coauthor_graph(G, within=coauthor_graph(G, top_n=2))
    with pytest.raises(ArgumentError, match="whole topic projection"):
        topic_graph(G, within=coauthor_graph(G))
    with pytest.raises(ArgumentError, match="counting 'full', not 'fractional'"):
        coauthor_graph(G, counting="fractional", within=coauthor_graph(G))


def test_topic_graph_counts_and_association(papers, methods):
    T = topic_graph(build_graph(papers, methods))
    assert T.nodes["method:x"] == {"kind": "method", "label": "Xnet", "alt_labels": ["XN", "XNet"], "papers": 2}
    assert T.edges["method:x", "method:y"] == {"count": 2, "weight": 2, "papers": ["paper:p1", "paper:p2"]}
    A = topic_graph(build_graph(papers, methods), normalize="association")
    # c_xy=2, c_xz=c_yz=1; k_x=k_y=3, k_z=2; m=4: AS = 2m c_ij / (k_i k_j)
    assert A.edges["method:x", "method:y"]["weight"] == pytest.approx(2 * 4 * 2 / (3 * 3))
    assert A.edges["method:x", "method:z"]["weight"] == pytest.approx(2 * 4 * 1 / (3 * 2))
    assert A.edges["method:x", "method:y"]["count"] == 2
    assert A.graph["normalize"] == "association"
    with pytest.raises(ArgumentError):
        topic_graph(build_graph(papers, methods), normalize="cosine")


def test_association_strength_is_one_under_independence():
    # Four methods, every pair co-occurring once: all k_i = 3, m = 6 -> 2*6*1/9 = 4/3 for each pair.
    ms = {f"p{i}{j}": (method(f"m{i}", f"M{i}"), method(f"m{j}", f"M{j}")) for i in range(4) for j in range(i + 1, 4)}
    A = topic_graph(build_graph([paper(k, ["A B"]) for k in ms], ms), normalize="association")
    assert {round(w, 9) for *_, w in A.edges(data="weight")} == {round(4 / 3, 9)}


# ------------------------------------------------------------------------------------- aliases
def test_aliases_yaml_merge_and_split(tmp_path):
    path = tmp_path / "aliases.yaml"
    path.write_text("merge:\n  - into: Jing Liu\n    names: [J. Liu, Jing M. Liu]\n"
                    "split:\n  - name: Jing Liu\n    paper: paper:p3\n    into: Jing Liu (PKU)\n", encoding="utf-8")
    aliases = load_aliases(path)
    G = build_graph([paper("p1", ["J. Liu", "Ann Lee"]), paper("p2", ["Jing M. Liu"]), paper("p3", ["Jing Liu"]),
                     paper("p4", ["Jing Liu"])], aliases=aliases)
    assert G.nodes["author:jing-liu"] == {"kind": "author", "label": "Jing Liu",
                                          "names": ["J. Liu", "Jing Liu", "Jing M. Liu"]}
    assert sorted(p for p, _ in G.in_edges("author:jing-liu")) == ["paper:p1", "paper:p2", "paper:p4"]
    assert list(G.in_edges("author:jing-liu-pku")) == [("paper:p3", "author:jing-liu-pku")]
    assert G.nodes["author:jing-liu-pku"]["label"] == "Jing Liu (PKU)"
    assert G.edges["paper:p1", "author:jing-liu"]["name"] == "J. Liu"  # as written on the paper


def test_aliases_csv_and_merged_coauthors_kept_once(tmp_path):
    path = tmp_path / "aliases.csv"
    path.write_text("action,name,into,paper\nmerge,J. Liu,Jing Liu,\n", encoding="utf-8")
    G = build_graph([paper("p1", ["Jing Liu", "J. Liu", "Bo Chen"])], aliases=load_aliases(path))
    assert G.nodes["paper:p1"]["n_authors"] == 2
    assert G.edges["paper:p1", "author:bo-chen"]["position"] == 2


@pytest.mark.parametrize("text, suffix, message", [
    ("merge:\n  - into: A B\n    names: [C D]\n  - into: E F\n    names: [C D]\n", ".yaml", "two different"),
    ("merge:\n  - into: A B\n    names: [C D]\n  - into: C D\n    names: [E F]\n", ".yaml", "itself merged"),
    ("merge: [{names: [x]}]\n", ".yaml", "merge entry 1"),
    ("action,name,into,paper\nsplit,A B,A B (2),\n", ".csv", "line 2"),
    ("who,what\n", ".csv", "header"),
    ("[1, 2", ".yaml", "not valid YAML"),
])
def test_aliases_errors_name_file_and_entry(tmp_path, text, suffix, message):
    path = tmp_path / f"aliases{suffix}"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message) as err:
        load_aliases(path)
    assert str(path) in str(err.value)


@pytest.mark.parametrize("a, b, reason", [
    ("Jing Liu", "J. Liu", "initials"),
    ("Jing Liu", "Jing M. Liu", "middle name"),
    ("Jing Liu", "Liu Jing", "name order"),
    ("Li X", "Li Xiang", "initials"),
    ("Jing Liu", "Jing Lin", None),
    ("Zeng", "Zeng Li", None),
    ("J. L.", "Jing Liu", None),
])
def test_similarity_reason(a, b, reason):
    assert similarity_reason(a, b) == reason


def test_possible_duplicates_are_reported_not_merged():
    G = build_graph([paper("p1", ["Jing Liu", "Ann Lee"]), paper("p2", ["J. Liu", "Ann Lee"]),
                     paper("p3", ["Jing M. Liu"]), paper("p4", ["Bo Chen"])])
    found = possible_duplicates(G)
    assert [d["authors"] for d in found] == [["author:j-liu", "author:jing-liu"],
                                             ["author:j-liu", "author:jing-m-liu"],
                                             ["author:jing-liu", "author:jing-m-liu"]]
    assert found[0]["shared_coauthors"] == 1 and found[0]["reason"] == "initials"
    assert found[1]["shared_coauthors"] == 0
    assert G.graph["n_authors"] == 5  # all three Liu spellings are still separate authors


def test_a_title_is_the_papers_label_and_a_derived_label_says_so():
    from kg.readers.fields import make_paper

    where = Source("t.jsonl", 1)
    titled = make_paper(authors=["Ana Silva"], abstract="We propose FooNet for graphs.", title="Graphs Made Easy",
                        source=where)
    plain = make_paper(authors=["Bo Li", "Carl Zeiss"], abstract="A study of nothing in particular.", source=where)
    G = build_graph([titled, plain])
    assert G.nodes[titled.node]["label"] == "Graphs Made Easy"
    assert G.nodes[titled.node]["label_source"] == "title"
    assert (G.nodes[plain.node]["label"], G.nodes[plain.node]["label_source"]) == ("Bo Li et al.", "authors")


def test_one_name_twice_on_a_paper_is_two_authors_and_ids_reach_the_author_nodes():
    where = Source("t.jsonl", 1)
    twice = Paper(key="k1", authors=(Author("Chao Liu", "chao-liu"), Author("Ana Silva", "ana-silva"),
                                     Author("Chao Liu", "chao-liu")), abstract="A.", text="A.", source=where)
    with_id = Paper(key="k2", authors=(Author("Wei Zhang", "orcid-1", ids=(("orcid", "1"),)),
                                       Author("W. Zhang", "orcid-1", ids=(("orcid", "1"),))),
                    abstract="B.", text="B.", source=where)
    G = build_graph([twice, with_id])
    first = sorted(v for _, v, d in G.out_edges("paper:k1", data=True) if d["rel"] == "authored_by")
    assert first == ["author:ana-silva", "author:chao-liu", "author:chao-liu--k1-3"]
    assert G.edges["paper:k1", "author:chao-liu--k1-3"]["position"] == 3
    assert G.nodes["author:chao-liu--k1-3"]["label"] == "Chao Liu"
    assert [v for _, v, d in G.out_edges("paper:k2", data=True) if d["rel"] == "authored_by"] == ["author:orcid-1"]
    assert G.nodes["author:orcid-1"]["ids"] == ["orcid:1"] and "ids" not in G.nodes["author:ana-silva"]
