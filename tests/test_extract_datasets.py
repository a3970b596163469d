"""Kinds of wrong data-set names (issue 23, data-set quality), each pinned on invented abstracts with
the real blank pipeline: what is no name, names kept whole and unchanged, spellings and aliases that
are one data set, and kinds of data or methods that are no data set."""
from __future__ import annotations

import pytest

from kg.extract import extract_concepts
from kg.extract.normalize import concept_text
from kg.records import Paper
from spans import datasets, methods


def concepts(*texts: str):
    """The corpus-linked concepts of one invented paper per text, keyed `p0`, `p1`, ..."""
    return extract_concepts([Paper(key=f"p{i}", authors=(), abstract=t, text=t) for i, t in enumerate(texts)])


def labels(*texts: str) -> list[set[str]]:
    """Per text, the labels of its data sets."""
    found = concepts(*texts).datasets
    return [{d.label for d in found[f"p{i}"]} for i in range(len(texts))]


# --- no names ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, text, bad", [
    ("number", "GlintNet improves accuracy on 12 datasets and on 7 benchmarks.", {"12", "7"}),
    ("count of things", "Scores on the entire 40-level benchmark improve.", {"40-level"}),
    ("dimension", "We release a 3D benchmark and a 2.5D dataset for grasping.", {"3D", "2.5D"}),
    ("Roman numeral", "It wins over the baselines on Warcraft III and KORA benchmarks.", {"III"}),
    ("modality", "We collect an open EEG and ECG dataset for sleep staging.", {"EEG", "ECG"}),
    ("modality", "The fMRI dataset of the study has 40 subjects.", {"fMRI"}),
    ("modality", "We segment tumours on the DCE-MRI dataset of the clinic.", {"DCE-MRI"}),
    ("defined term", "We propose a method for dataset CondEnsation (DC) with a tiny buffer.", {"CondEnsation"}),
    ("web address", "Code and data are at https://github.com/quill/FernBench for all.",
     {"https://github.com/quill/FernBench"}),
    ("variable", "Given a private dataset D and a budget, the sampler answers queries.", {"D"}),
    ("organisation", "We test on MNIST and NVIDIA with a small ViT.", {"NVIDIA"}),
    ("capitalised adjective", "We present a comprehensive Multimodal benchmark for planning.", {"Multimodal"}),
    ("weak word", "Contributions: (1) A New Dataset of river scenes.", {"New", "New Dataset"}),
    ("common noun", "We collect a unified physical-digital Attack dataset of 12 digital attacks.", {"Attack"}),
    ("language and acronym", "We publish the first Chinese QX dataset with four QX speakers.", {"Chinese QX", "QX"}),
    ("programming language", "VF-Sniffer wins on the Java and Python datasets.", {"Java", "Python"}),
    ("mapping task", "We release a new NL-to-program benchmark for assistants.", {"NL-to-program"}),
])
def test_what_is_no_data_set_name(kind, text, bad):
    (found,) = labels(text)
    assert not found & bad, (kind, found)


# --- names whole and as written ---------------------------------------------------------------------

def test_a_capitalised_word_is_a_name_when_the_paper_never_writes_it_in_lower_case():
    assert labels("We test on the Yelp dataset and the Cora dataset.", "Attack detection on the Reddit dataset.") \
        == [{"Yelp", "Cora"}, {"Reddit"}]


def test_a_name_ending_in_a_count_with_a_unit_is_not_cut(nlp):
    text = "Pretrained on LAION-400m and Flickr30K, it reaches 80% on ImageNet-1K and Quokka-21K."
    assert {"LAION-400m", "Flickr30K", "ImageNet-1K", "Quokka-21K"} <= set(datasets(nlp, text))
    (found,) = labels(text)
    assert {"LAION-400m", "Flickr30k", "ImageNet-1k"} <= found
    assert not any(label.endswith(("-1", "-400", "-21")) for label in found)


def test_a_name_ending_in_s_is_never_made_singular():
    (found,) = labels("We evaluate on nuScenes, on Cityscapes and on the Frost Glyphs dataset.")
    assert {"nuScenes", "Cityscapes", "Frost Glyphs"} <= found and not found & {"nuScene", "Cityscape", "Frost Glyph"}


def test_a_defined_long_form_of_a_data_set_is_never_made_singular(nlp):
    doc = nlp("We score on the Amber Pond Benchmarks (APB) and on Street View House Numbers (SVHN).")
    assert set(doc._.kg_dataset_acronyms) == {("APB", "Amber Pond Benchmarks"), ("SVHN", "Street View House Numbers")}
    assert not doc._.kg_acronyms  # a listed short form (`SVHN`) makes its definition a data set's
    (found,) = labels("We score on the Amber Pond Benchmarks (APB). GlintNet wins on APB.")
    assert "Amber Pond Benchmarks" in found and "Amber Pond Benchmark" not in found


def test_a_definition_followed_by_a_data_set_head_is_a_data_set_s(nlp):
    doc = nlp("We introduce the HierArchical Leaf Vein Segmentation (HALVS) dataset. GlintNet wins on HALVS.")
    assert doc._.kg_dataset_acronyms == (("HALVS", "HierArchical Leaf Vein Segmentation"),) and not doc._.kg_acronyms
    assert {"HierArchical Leaf Vein Segmentation", "HALVS"} <= set(datasets(nlp, doc.text))
    assert not any("HALVS" in m or "Segmentation" in m for m in methods(nlp, doc.text))
    assert nlp("We train a graph neural network (GNN) model.")._.kg_acronyms == (("GNN", "graph neural network"),)


def test_a_method_long_form_is_still_made_singular(nlp):
    assert nlp("We train Deep Glint Networks (DGNs) on images.")._.kg_acronyms == (("DGNs", "Deep Glint Network"),)


@pytest.mark.parametrize("text, names", [
    ("We evaluate GlintNet on the FernWatch and the Marsh Gesture datasets.", {"FernWatch", "Marsh Gesture"}),
    ("We evaluate GlintNet on the FernWatch and Marsh Gesture datasets.", {"FernWatch", "Marsh Gesture"}),
    ("Scores drop on the FernWatch or the Marsh Gesture datasets.", {"FernWatch", "Marsh Gesture"}),
    ("We run experiments on ReedCam, FernWatch and Marsh Gesture datasets.", {"ReedCam", "FernWatch", "Marsh Gesture"}),
    ("We evaluate on the Marsh Gesture and the FernWatch datasets.", {"Marsh Gesture", "FernWatch"}),
    ("Scores drop on the Amber Pond Sound or the FernWatch benchmarks.", {"Amber Pond Sound", "FernWatch"}),
    ("We run experiments on ReedCam, FernWatch, and the Marsh Gesture datasets.",
     {"ReedCam", "FernWatch", "Marsh Gesture"}),
])
def test_names_listed_before_a_plural_head_are_each_a_data_set_with_or_without_the(text, names):
    (found,) = labels(text)
    assert names <= found and not any(label.lower().startswith("the") for label in found)


@pytest.mark.parametrize("text, name", [
    ("To this end we collect a unified physical-digital Attack dataset, called UniAttackData.", "UniAttackData"),
    ("We build a new label-efficient benchmark, named KelpBench, for agents.", "KelpBench"),
    ("We start by introducing a dataset called ReedSet-2, made of renderings.", "ReedSet-2"),
    ("We present a large-scale Marsh Adaptation Benchmark, dubbed MAB, with nine algorithms.", "MAB"),
])
def test_a_name_given_by_a_naming_verb_after_a_data_set_head_is_a_data_set_not_a_method(text, name):
    found = concepts(text)
    assert name in {d.label for d in found.datasets["p0"]}
    assert name not in {m.label for m in found.methods["p0"]}


def test_the_first_name_of_a_comma_list_is_linked_only_when_an_and_ends_the_list(nlp):
    assert "ReedCam" in datasets(nlp, "Accuracy drops on ReedCam, FernWatch or HeronSet benchmarks.")
    assert "GlintNet" not in datasets(nlp, "On ReedCam, GlintNet beats the HeronSet dataset baseline.")


def test_plain_capitalised_words_are_listed_only_after_a_the_like_the_data_set(nlp):
    assert datasets(nlp, "We train Glint Net and the FernWatch dataset.") == ["FernWatch"]


def test_a_the_links_a_name_to_a_data_set_only_when_both_have_one(nlp):
    text = "With both GlowCode and the TP9 benchmark, and on datasets Heron42 and The Pile, we test."
    assert datasets(nlp, text) == ["TP9", "Heron42", "The Pile"] and "GlowCode" in methods(nlp, text)


def test_a_listed_name_is_found_in_any_case_when_it_has_a_digit(nlp):
    text = "We train a ResNet on Cifar-10 and on Wikitext-103."
    assert {"Cifar-10", "Wikitext-103"} <= set(datasets(nlp, text))
    assert not {"Cifar-10", "Wikitext-103"} & set(methods(nlp, text))


def test_a_long_form_matched_from_a_stop_word_takes_the_name_before_it():
    (found,) = labels("We introduce the Anchor and Relation Corpus (ARC). On ARC, humans solve most puzzles.")
    assert "Anchor and Relation Corpus" in found and "and Relation Corpus" not in found


# --- one data set, several spellings ----------------------------------------------------------------

def test_spellings_and_listed_aliases_are_one_data_set():
    found = concepts("Detection on MS-COCO improves.", "We fine-tune on COCO.", "Results on MS COCO and CIFAR10.",
                     "Accuracy on CIFAR-10 and Tiny-ImageNet.", "Accuracy on TinyImageNet and the Heron12 dataset.",
                     "Scores on the Heron-12 dataset.").datasets
    by_key = {d.key: d for paper in found.values() for d in paper}
    coco = {d.key for paper in found.values() for d in paper if d.label == "COCO"}
    assert len(coco) == 1 and {"MS-COCO", "MS COCO"} <= set(by_key[coco.pop()].alt_labels)
    for label in ("CIFAR-10", "Tiny ImageNet"):
        assert len({d.key for paper in found.values() for d in paper if d.label == label}) == 1
    assert not {d.label for paper in found.values() for d in paper} & {"CIFAR10", "TinyImageNet", "MS-COCO"}
    tiny = {d.key for d in found["p4"] if d.label == "Tiny ImageNet"}
    heron = {d.key for key in ("p4", "p5") for d in found[key]} - tiny
    assert len(heron) == 1  # `Heron12` and `Heron-12`, listed nowhere


# --- kinds of data and methods are no data sets -----------------------------------------------------

@pytest.mark.parametrize("text, bad, good", [
    ("Experiments on four FSL benchmarks and multiple HAR datasets show gains.", {"FSL", "HAR"}, set()),
    ("Experiments on three popular ZSL benchmark datasets show gains.", {"ZSL"}, set()),
    ("Experiments on 128 UCR datasets show gains.", {"UCR", "128 UCR"}, set()),
    ("It beats diffusion models on several I2I benchmarks.", {"I2I"}, set()),
    ("It is tested on a safety-critical MDPX benchmark and an NLQ corpus.", {"MDPX", "NLQ"}, set()),
    ("We release a new FooBar-7 dataset and the KRAK dataset.", set(), {"FooBar-7", "KRAK"}),
    ("We test on several CIFAR and ImageNet-based benchmarks.", {"ImageNet-based", "ImageNet"}, set()),
    ("Experiments on the KESTREL and OSPREY datasets show gains.", set(), {"KESTREL", "OSPREY"}),
    ("Word accuracy on Gull14M benchmarks rises.", set(), {"Gull14M"}),
    ("Force errors on the QX17 benchmarks fall.", set(), {"QX17"}),
    ("Results on the multilingual QRT dataset Pelican-9 are better.", {"QRT"}, {"Pelican-9"}),
    ("An ImageNet-based backbone on MNIST-like digits and ImageNet-R wins.", {"ImageNet", "MNIST"},
     {"ImageNet-R"}),
])
def test_kinds_of_data_are_no_data_sets(text, bad, good):
    (found,) = labels(text)
    assert not found & bad and good <= found, found


def test_a_short_form_defined_for_a_method_is_no_data_set_but_a_named_one_is():
    found = labels("We study lattice zebra learning (LZL) for control.", "A safe LZL benchmark is released.",
                   "We build the Harbor Traffic Simulation (HTS). Results on the HTS dataset improve.")
    assert "LZL" not in found[1]
    assert found[2] & {"HTS", "Harbor Traffic Simulation"}


def test_a_name_most_papers_use_as_a_method_is_no_data_set():
    model = ["We propose QuillFormer for parsing.", "QuillFormer beats the baselines.", "We distil QuillFormer."]
    found = labels(*model, "Experiments on MNIST and QuillFormer show gains.")
    assert "MNIST" in found[3] and "QuillFormer" not in found[3]


# --- hype inside method phrases ---------------------------------------------------------------------

@pytest.mark.parametrize("text, good", [
    ("We compare with a GAN-based state-of-the-art model on faces.", None),
    ("It beats the diverse state-of-the-art approaches and the state-ofthe-art algorithm.", None),
    ("Our SOTA graph pooling approach is fast.", "graph pooling approach"),
])
def test_hype_inside_a_method_phrase(nlp, text, good):
    found = methods(nlp, text)
    assert not any("state" in concept_text(m) or "sota" in concept_text(m) for m in found), found
    assert good is None or good in found


def test_a_hype_acronym_is_no_method_of_the_corpus():
    found = concepts("Our tagger beats the state-of-the-art methods (SOTA) on parsing.",
                     "It beats every SOTA baseline and the SOTAs of last year.").methods
    forms = {form for paper in found.values() for m in paper for form in (m.label, *m.alt_labels)}
    assert not any("SOTA" in form or "state" in form for form in forms), forms


# --- web addresses and data sets among methods ------------------------------------------------------

def test_web_addresses_and_data_sets_are_no_methods():
    found = concepts("The code of GlintNet is at https://github.com/quill/GlintNet-Code for all.",
                     "GlintNet scores well on the Deepmind Control Suite and on PASCAL VOC.",
                     "We release HeronSet, a dataset of birds. The HeronSet dataset has labels.",
                     "We train GlintNet on HeronSet and compare.")
    methods_found = {m.label for paper in found.methods.values() for m in paper}
    assert "GlintNet" in methods_found
    assert not any("github" in label.lower() for label in methods_found)
    assert not methods_found & {"Deepmind Control Suite", "PASCAL VOC", "Pascal VOC", "HeronSet"}, methods_found
