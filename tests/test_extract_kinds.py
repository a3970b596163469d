"""Kinds of names and phrases (issue 23's kinds of errors among them), each on invented abstracts, with
the real blank pipeline: what must be found as a method, what must not be, data sets as their own
kind, and normalisation damage."""
from __future__ import annotations

import pytest

from kg.errors import ArgumentError
from kg.extract import extract, extract_concepts, keywords_records, make_pipeline
from kg.extract.normalize import concept_text, display_form
from kg.records import Paper
from spans import datasets, methods


# --- missed kinds -----------------------------------------------------------------------------------

def test_every_baseline_of_a_coordinated_list(nlp):
    found = methods(nlp, "Our tuner outperforms PPO, DPO, KTO and SimPO on reasoning tasks.")
    assert {"PPO", "DPO", "KTO", "SimPO"} <= set(found)
    # a list of plain capitalised words is no list of methods
    assert "Colon" not in methods(nlp, "The marks are Colon, Dash and Ellipsis for the BiLSTM tagger.")


def test_bare_acronym_without_method_context_is_not_taken(nlp):
    assert "FOO" not in methods(nlp, "The FOO of the city approved the plan.")


def test_emphasised_acronym_definition(nlp):
    assert {"latent policy search", "LPS"} <= set(methods(nlp, "We propose _latent policy search_ (LPS). LPS is fast."))


def _in(template: str, *names: str) -> list[tuple[str, str]]:
    return [(template.format(name), name) for name in names]


#: Texts and a method each must yield, by kind of name or phrase.
FOUND = {
    "named method": _in("Results show that {} beats the baseline in our tests.", "BlockPerm-SJLT", "FlashSketch",
                        "GP-UCB", "PPI++", "W4A4", "Seed-GRPO", "Megatron-LM", "AdamW", "Meta-iLaD", "DIBJudge"),
    "technique phrase": [
        ("We study Gaussian process Thompson sampling under noise.", "Gaussian process Thompson sampling"),
        ("A layer-aware activation quantization algorithm allocates bits.", "layer-aware activation quantization algorithm"),
        ("It extends knowledge distillation to graphs.", "knowledge distillation"),
        ("We derive a variance-preserving diffusion process here.", "variance-preserving diffusion process"),
        ("We present a vector-quantized compression that ensures robustness.", "vector-quantized compression"),
        ("This yields a simple sparsity-promoting regularization of weights.", "sparsity-promoting regularization")],
    "undefined acronym in method context": [
        ("Unlike SAM, our optimiser needs one gradient per step.", "SAM"),
        ("We analyse the NNGP of wide networks.", "NNGP"),
        ("The new sampler is faster than HMC on every target.", "HMC")],
    "markdown-emphasised name": [
        ("We call it _latent policy search_ and train it end to end.", "latent policy search"),
        ("Our planner, *Wayfarer*, routes the queries.", "Wayfarer"),
        ("We introduce *FooNet* for sparse graphs.", "FooNet")],
    "proposed name without acronym definition": [
        ("We present OMNIA, a single model for every modality.", "OMNIA"),
        ("GR-2 is a generalist robot policy trained on videos.", "GR-2"),
        ("We propose DRCFS, a doubly robust feature selection method.", "DRCFS"),  # a capital S is no plural
        ("We introduce QLDS, a linear classification model.", "QLDS"),
        ("Memory is scarce. We present MODeL, an algorithm that places tensors.", "MODeL"),  # not the generic `model`
        ("In this work, we propose EDGE, a new diffusion-based graph model.", "EDGE"),  # not the graph's `edge`
        ("Self-organizing maps (SOM) are old. We propose SOM-CPC, a model that maps data.", "SOM-CPC")],
    "name given by a naming verb or right after a method head": [
        ("For CDP, we propose a federated algorithm termed as ROBIN and show that it is optimal.", "ROBIN"),
        ("We propose an estimator called the B-Learner, which learns sharp bounds.", "B-Learner"),
        ("We propose a novel method named MASER: MARL with subgoals.", "MASER"),
        ("We propose a simple algorithm, called SOFTSAT. It scales.", "SOFTSAT"),
        ("We design a generic algorithm UPSCALE to prune models.", "UPSCALE")],
    "name an apposition calls a method": [
        ("We develop CRAIG, a method to select a weighted subset of the data.", "CRAIG"),
        ("We design POGER, a proxy-guided efficient re-sampling method, which selects words.", "POGER")],
    "nominalisation-headed technique phrase": _in("We combine {} with the usual recipe in every run.", "weight averaging",
                                                  "threshold calibration", "sample reweighting", "L1 penalties"),
    "named theorem, law or estimator": _in("The proof follows from the {} and a union argument.", "Pinsker's inequality",
                                           "Bellman equation", "Kaplan-Meier estimator", "Hoeffding bound"),
}


@pytest.mark.parametrize("text, name", [pytest.param(text, name, id=f"{kind}: {name}")
                                        for kind, cases in FOUND.items() for text, name in cases])
def test_found_as_a_method(nlp, text, name):
    assert name in methods(nlp, text)


# --- kept but not methods ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, name", [
    ("We train on ImageNet-1k and test on CIFAR-100 with a ViT.", "ImageNet-1k"),
    ("We train on ImageNet-1k and test on CIFAR-100 with a ViT.", "CIFAR-100"),
    ("The tuned model solves GSM8K. It also leads on MMLU.", "GSM8K"),
    ("The tuned model solves GSM8K. It also leads on MMLU.", "MMLU"),
    ("Results on the Foo47 dataset and on HardMathBench improve.", "Foo47"),
    ("Results on the Foo47 dataset and on HardMathBench improve.", "HardMathBench"),
    ("We annotate the Zeta Discourse Treebank (ZDT) and release ZDT.", "Zeta Discourse Treebank"),
    ("Scores on COCO-C and Night-C drop for every detector.", "Night-C"),  # listed with a data set
    ("We test on GSM8K, FooMath and BarQuiz with PPO.", "BarQuiz"),
])
def test_datasets_are_their_own_kind(nlp, text, name):
    assert name in datasets(nlp, text)
    assert not any(name in m for m in methods(nlp, text))


@pytest.mark.parametrize("text, bad", [
    ("Training takes a day on eight A100 GPUs with the AdamW optimizer.", "A100"),
    ("We profile it on TPU v4 pods.", "TPU v4"),
    ("Checkpoints from OpenAI are hosted on Hugging Face and GitHub.", "OpenAI"),
    ("Checkpoints from OpenAI are hosted on Hugging Face and GitHub.", "Hugging Face"),
    ("Checkpoints from OpenAI are hosted on Hugging Face and GitHub.", "GitHub"),
    ("Graph rewiring has received growing attention in recent years.", "attention"),
    ("This is a promising approach with state-of-the-art results.", "promising approach"),
    ("Memory is the Achilles' heel of dense retrieval.", "Achilles' heel"),
    ("We report BLEU and WER for the Conformer model.", "BLEU"),
    ("Researchers at Kyoto Robotics University and the Allen Vision Institute built it.", "Kyoto Robotics University"),
    ("Researchers at Kyoto Robotics University and the Allen Vision Institute built it.", "Allen Vision Institute"),
    ("Rulings of the Supreme Court guide the Mediation Agency on fairness.", "Supreme Court"),
])
def test_hardware_organisations_hype_and_metrics_are_not_methods(nlp, text, bad):
    found = methods(nlp, text)
    assert not any(concept_text(bad) in concept_text(m) for m in found), found


def test_verb_phrases_and_glued_adjectives(nlp):
    found = methods(nlp, "The celebrated mirror descent has received increasing attention.")
    assert "mirror descent" in found
    assert not any("celebrated" in m or "received" in m for m in found)
    assert not any(m.startswith("three") for m in methods(nlp, "We propose three novel samplers for SDEs."))


@pytest.mark.parametrize("text, terms", [
    ("The resulting algorithm beats a given model and a small network.", []),
    ("The trained agent and the final classifier use a developed algorithm.", []),
    ("The resulting sparse network beats a given neural network architecture.", ["sparse network", "neural network"]),
    ("An accurate clone model beats the competing approach.", ["clone model"]),
    ("Attackers create model clones with contrastive learning.", ["contrastive learning"]),
    ("An empirical analysis and a thorough, detailed and systematic study follow.", []),
    ("Unlike ControlNet, it needs no extra encoder.", ["ControlNet"]),
])
def test_leftover_modifiers_are_no_part_of_a_term(nlp, text, terms):
    """Modifiers that tell no method apart (`resulting`, `given`, `small`, `trained`, `final`,
    `developed`, `accurate`, `competing`, `empirical`, `extra`, ...) and a verb (`create`) start no term; a term with a generic
    head then has no informative modifier left (`algorithm`, `model`), one with another head keeps the rest."""
    assert methods(nlp, text) == terms


def test_verb_after_to_starts_no_term(nlp):
    found = methods(nlp, "The router aims to retrieve specific components with a dual encoder.")
    assert "dual encoder" in found and not any(m.startswith("retrieve") for m in found), found
    assert "reinforcement learning" in methods(nlp, "We turn to reinforcement learning for control.")


def test_a_naming_verb_ends_the_phrase_and_a_field_is_no_definition(nlp):
    found = methods(nlp, "We propose a federated algorithm termed as ROBIN and show that it is optimal.")
    assert "federated algorithm" in found and not any("termed" in m for m in found), found
    found = methods(nlp, "We study Generative Artificial Intelligence (AI). AI models draw pictures.")
    assert "AI" not in found, found
    found = methods(nlp, "Bayesian neural networks (BNN) are used. We introduce BNN-DP, a framework.")
    assert "BNN-DP" in found and "BNN" in found, found  # the short form's own uses stay, not inside the name


def test_an_apposition_with_a_data_set_head_makes_no_method(nlp):
    text = "We train on FROGS, a dataset of pond sounds, with KAPPA, a new corpus of calls."
    assert methods(nlp, text) == []


def test_task_headed_phrases_are_not_methods(nlp):
    found = methods(nlp, "Statistical machine translation (SMT) and speech recognition improve with a CRF tagger.")
    assert "CRF tagger" in found
    assert not any("translation" in m or "recognition" in m for m in found)


# --- normalisation ----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("natural language processing", "natural language processing"),
    ("Mixture of Experts", "mixture of experts"),
    ("mixtures of experts", "mixture of experts"),
    ("Naive Bayes", "naive bayes"),
    ("biases", "bias"),
    ("L1 penalties", "l1 penalty"),
    ("graph neural networks", "graph neural network"),
    ("embeddings", "embedding"),
])
def test_normalisation_singularises_plain_plural_heads_only(text, expected):
    assert concept_text(text) == expected


def test_mixture_of_experts_label_keeps_its_plural():
    assert display_form("Mixture of Experts", sentence_start=False) == "Mixture of Experts"
    text = "We scale a Mixture of Experts (MoE) model. The MoE routes tokens."
    (moe,) = [m for m in extract([Paper(key="p", authors=(), abstract=text, text=text)])["p"] if "MoE" in m.alt_labels]
    assert moe.label == "Mixture of Experts" and moe.key == "mixture-of-experts"


# --- the dataset kind through extract_concepts and keywords_records ----------------------------------

def test_extract_concepts_gives_both_kinds():
    text = ("We propose FlashTune, which beats LoRA on GSM8K and on the Penn Treebank (PTB). "
            "On PTB, FlashTune also beats full fine-tuning.")
    papers = [Paper(key="p", authors=(), abstract=text, text=text, id="p1")]
    concepts = extract_concepts(papers)
    method_labels = {form for m in concepts.methods["p"] for form in (m.label, *m.alt_labels)}
    data = {d.label: d for d in concepts.datasets["p"]}
    assert {"FlashTune", "LoRA"} <= method_labels
    assert set(data) == {"GSM8K", "Penn Treebank"} and data["Penn Treebank"].alt_labels == ("PTB",)
    assert data["Penn Treebank"].count == 3 and data["Penn Treebank"].key == "penn-treebank"
    assert {m.kind for m in concepts.methods["p"]} == {"method"} and {d.kind for d in data.values()} == {"dataset"}
    assert extract(papers)["p"] == concepts.methods["p"]
    (record,) = keywords_records(papers, concepts.methods, concepts.datasets)
    assert [d["label"] for d in record["datasets"]] == ["GSM8K", "Penn Treebank"]
    assert "datasets" not in keywords_records(papers, concepts.methods)[0]


def test_at_most_max_concepts_keeping_names():
    names = ["AlphaNet", "BetaNet", "GammaNet", "DeltaNet", "EpsNet", "ZetaNet"]
    text = ("We compare " + ", ".join(names) + " and EtaNet. They use graph pooling, edge dropout, "
            "label smoothing, weight averaging, feature masking and token merging.")
    papers = [Paper(key="p", authors=(), abstract=text, text=text)]
    found = extract(papers)["p"]
    assert len(found) == 10 and {"AlphaNet", "EtaNet"} <= {m.label for m in found}
    assert len(extract(papers, max_concepts=None)["p"]) > 10


def test_rules_can_be_disabled_and_unknown_rules_are_an_error():
    text = "Unlike SAM, it is fast."
    assert "SAM" not in methods(make_pipeline(disabled=["CONTEXT"]), text)
    with pytest.raises(ArgumentError, match="unknown kg_methods rule"):
        make_pipeline(disabled=["NOPE"])
