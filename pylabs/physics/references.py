"""The papers and documents the labs cite, each written once.

Math peeks cite by key with what the lab takes from the source:
``cite("kaplan2020", "C = 6ND")`` -> "Kaplan et al. 2020, *Scaling Laws for Neural
Language Models* (C = 6ND)." The Sources page lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    authors: str
    year: int
    title: str
    url: str = ""

    def text(self, note: str = "") -> str:
        year = f" {self.year}" if self.year else ""
        detail = f" ({note})" if note else ""
        return f"{self.authors}{year}, *{self.title}*{detail}."


REFERENCES: dict[str, Reference] = {
    "kaplan2020": Reference("Kaplan et al.", 2020, "Scaling Laws for Neural Language Models",
                            "https://arxiv.org/abs/2001.08361"),
    "thakur2005": Reference("Thakur, Rabenseifner and Gropp", 2005,
                            "Optimization of Collective Communication Operations in MPICH",
                            "https://doi.org/10.1177/1094342005051521"),
    "zero2020": Reference("Rajbhandari et al.", 2020, "ZeRO: Memory Optimizations Toward Training Trillion "
                          "Parameter Models", "https://arxiv.org/abs/1910.02054"),
    "megatron_ddp": Reference("NVIDIA", 0, "Megatron Core developer guide, core.distributed.distributed_data_parallel",
                              "https://docs.nvidia.com/megatron-core/developer-guide/latest/apidocs/core/"
                              "core.distributed.distributed_data_parallel.html"),
    "nccl_tests": Reference("NVIDIA", 0, "nccl-tests, doc/PERFORMANCE.md",
                            "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md"),
    "palm2022": Reference("Chowdhery et al.", 2022, "PaLM: Scaling Language Modeling with Pathways",
                          "https://arxiv.org/abs/2204.02311"),
    "narayanan2021": Reference("Narayanan et al.", 2021, "Efficient Large-Scale Language Model Training on GPU "
                               "Clusters Using Megatron-LM", "https://arxiv.org/abs/2104.04473"),
    "korthikanti2022": Reference("Korthikanti et al.", 2022, "Reducing Activation Recomputation in Large "
                                 "Transformer Models", "https://arxiv.org/abs/2205.05198"),
    "mccandlish2018": Reference("McCandlish et al.", 2018, "An Empirical Model of Large-Batch Training",
                                "https://arxiv.org/abs/1812.06162"),
    "scaling_book": Reference("Austin et al.", 2025, "How to Scale Your Model (the scaling book)",
                              "https://jax-ml.github.io/scaling-book/"),
    # ---- V2-07 The Checkpoint Reckoning ----
    "young1974": Reference("Young", 1974, "A first order approximation to the optimum checkpoint interval",
                           "https://doi.org/10.1145/361147.361115"),
    "daly2006": Reference("Daly", 2006, "A higher order estimate of the optimum checkpoint interval for "
                          "restart dumps", "https://doi.org/10.1016/j.future.2004.11.016"),
    # ---- V2-10 The KV-Cache Memory Wall ----
    "ainslie2023": Reference("Ainslie et al.", 2023, "GQA: Training Generalized Multi-Query Transformer Models "
                             "from Multi-Head Checkpoints", "https://arxiv.org/abs/2305.13245"),
    "kwon2023": Reference("Kwon et al.", 2023, "Efficient Memory Management for Large Language Model Serving "
                          "with PagedAttention", "https://arxiv.org/abs/2309.06180"),
    "yu2022": Reference("Yu et al.", 2022, "Orca: A Distributed Serving System for Transformer-Based "
                        "Generative Models", "https://www.usenix.org/conference/osdi22/presentation/yu"),
    "williams2009": Reference("Williams, Waterman and Patterson", 2009, "Roofline: An Insightful Visual "
                              "Performance Model for Multicore Architectures",
                              "https://doi.org/10.1145/1498765.1498785"),
    "kleinrock1975": Reference("Kleinrock", 1975, "Queueing Systems, Volume I: Theory",
                               "https://www.wiley.com/en-us/Queueing+Systems%2C+Volume+1%3A+Theory-p-9780471491101"),
    "newell1982": Reference("Newell", 1982, "Applications of Queueing Theory, 2nd ed. (Chapman and Hall), "
                            "ch. 1-2: cumulative arrival and departure curves, the deterministic fluid approximation",
                            "https://books.google.com/books?id=5jbxAAAAMAAJ"),
    "little1961": Reference("Little", 1961, "A Proof for the Queuing Formula: L = λW",
                            "https://doi.org/10.1287/opre.9.3.383"),
    "agrawal2024": Reference("Agrawal et al.", 2024, "Taming Throughput-Latency Tradeoff in LLM Inference with "
                             "Sarathi-Serve (OSDI 2024)", "https://arxiv.org/abs/2403.02310"),
    "franx2001": Reference("Franx", 2001, "A Simple Solution for the M/D/c Waiting Time Distribution "
                           "(Operations Research Letters 29(5))",
                           "https://doi.org/10.1016/S0167-6377(01)00108-0"),
    "pytorch_dcp_async": Reference("Pasqualin, Zhang, Kumpera and Huang (PyTorch)", 2024,
                                   "Asynchronous Saving with Distributed Checkpoint (DCP): copy to CPU buffers, "
                                   "then save in parallel with training",
                                   "https://pytorch.org/tutorials/recipes/distributed_async_checkpoint_recipe.html"),
    "pytorch_async_2025": Reference("Wright et al. (Meta and Crusoe, PyTorch)", 2025,
                                    "6x faster Async Checkpointing in PyTorch, using Cached Plans, no GIL contention",
                                    "https://pytorch.org/blog/6x-faster-async-checkpointing/"),
    "llama3_2024": Reference("Dubey et al. (Llama Team, AI @ Meta)", 2024, "The Llama 3 Herd of Models",
                             "https://arxiv.org/abs/2407.21783"),
    # ---- V2-01 The Scale Illusion ----
    "li2020_ddp": Reference("Li et al.", 2020, "PyTorch Distributed: Experiences on Accelerating Data Parallel "
                            "Training (VLDB)", "https://arxiv.org/abs/2006.15704"),
    # ---- V2-08 The Utilization Trap ----
    "allen1990": Reference("Allen", 1990, "Probability, Statistics, and Queueing Theory with Computer Science "
                           "Applications, 2nd ed. (Academic Press)",
                           "https://www.elsevier.com/books/probability-statistics-and-queueing-theory/allen/978-0-08-057105-8"),
    # ---- V2-03 The Bisection Bandwidth Wall ----
    "dally_towles2004": Reference("Dally and Towles", 2004, "Principles and Practices of Interconnection Networks",
                                  "https://www.oreilly.com/library/view/principles-and-practices/9780122007514/"),
    "leiserson1985": Reference("Leiserson", 1985, "Fat-Trees: Universal Networks for Hardware-Efficient "
                               "Supercomputing", "https://doi.org/10.1109/TC.1985.6312192"),
    "ying2018": Reference("Ying et al.", 2018, "Image Classification at Supercomputer Scale",
                          "https://arxiv.org/abs/1811.06992"),
    # ---- V2-11 The Federation Paradox ----
    "mcmahan2017": Reference("McMahan et al.", 2017, "Communication-Efficient Learning of Deep Networks from "
                             "Decentralized Data", "https://arxiv.org/abs/1602.05629"),
    "mcmahan2018": Reference("McMahan et al.", 2018, "Learning Differentially Private Recurrent Language Models",
                             "https://arxiv.org/abs/1710.06963"),
    "xu2023": Reference("Xu et al.", 2023, "Federated Learning of Gboard Language Models with Differential Privacy "
                        "(ACL 2023 Industry Track)", "https://arxiv.org/abs/2305.18465"),
    "hard2018": Reference("Hard et al.", 2018, "Federated Learning for Mobile Keyboard Prediction",
                          "https://arxiv.org/abs/1811.03604"),
    "abadi2016": Reference("Abadi et al.", 2016, "Deep Learning with Differential Privacy",
                           "https://arxiv.org/abs/1607.00133"),
    "mironov2017": Reference("Mironov", 2017, "Rényi Differential Privacy", "https://arxiv.org/abs/1702.07476"),
    "mironov2019": Reference("Mironov, Talwar and Zhang", 2019, "Rényi Differential Privacy of the Sampled "
                             "Gaussian Mechanism", "https://arxiv.org/abs/1908.10530"),
    "balle2020": Reference("Balle et al.", 2020, "Hypothesis Testing Interpretations and Rényi Differential "
                           "Privacy", "https://arxiv.org/abs/1905.09982"),
    "kairouz2015": Reference("Kairouz, Oh and Viswanath", 2015, "The Composition Theorem for Differential "
                             "Privacy", "https://arxiv.org/abs/1311.0776"),
    "dwork_roth2014": Reference("Dwork and Roth", 2014, "The Algorithmic Foundations of Differential Privacy",
                                "https://www.cis.upenn.edu/~aaroth/Papers/privacybook.pdf"),
    "tf_privacy": Reference("TensorFlow Privacy", 0, "tutorials/README.md and rdp_accountant_test.py",
                            "https://github.com/tensorflow/privacy"),
    # V2-04 The I/O Bottleneck
    "aws_s3_perf": Reference("Amazon Web Services", 0, "Best practices design patterns: optimizing Amazon S3 "
                             "performance", "https://docs.aws.amazon.com/AmazonS3/latest/userguide/"
                             "optimizing-performance.html"),
    "aws_s3_latency": Reference("Amazon Web Services", 0, "Best Practices Design Patterns: Optimizing Amazon S3 "
                                "Performance, 'Timeouts and retries for latency-sensitive applications'",
                                "https://docs.aws.amazon.com/whitepapers/latest/s3-optimizing-performance-best-"
                                "practices/timeouts-and-retries-for-latency-sensitive-applications.html"),
    "webdataset": Reference("Aizman, Maltby and Breuel", 2019, "High Performance I/O For Large Scale Deep "
                            "Learning", "https://arxiv.org/abs/2001.01858"),
    "webdataset_sharding": Reference("WebDataset project", 0, "Sharding, Parallel I/O, and DataLoader (OpenImages: "
                                     "554 shards of about 1 GB each)",
                                     "https://webdataset.github.io/webdataset/sharding/"),
    "lustre_manual": Reference("Lustre project", 0, "Lustre Software Release 2.x Operations Manual",
                               "https://doc.lustre.org/lustre_manual.xhtml"),
    # seed-lab corrections (V2-09): the interleaved schedule's checks, read in the source
    "megatron_schedules": Reference(
        "NVIDIA Megatron-LM", 2026, "megatron/core/pipeline_parallel/schedules.py, "
        "forward_backward_pipelining_with_interleaving",
        "https://github.com/NVIDIA/Megatron-LM/blob/d98e8a64ddf34856e74b24714e3bedb2f5a39553/"
        "megatron/core/pipeline_parallel/schedules.py"),
    # V2-15 The Jevons Reckoning
    "ipcc_ar5_annex3": Reference("Schlömer et al. (IPCC WGIII)", 2014, "Annex III: Technology-specific Cost and "
                                 "Performance Parameters, in Climate Change 2014: Mitigation of Climate Change",
                                 "https://www.ipcc.ch/site/assets/uploads/2018/02/ipcc_wg3_ar5_annex-iii.pdf"),
    "sorrell2009": Reference("Sorrell", 2009, "Jevons' Paradox revisited: The evidence for backfire from improved "
                             "energy efficiency", "https://doi.org/10.1016/j.enpol.2008.12.003"),
    "jevons1865": Reference("Jevons", 1865, "The Coal Question", "https://oll.libertyfund.org/titles/jevons-the-coal-question"),
    "uptime2023": Reference("Uptime Institute", 2023, "Global Data Center Survey 2023",
                            "https://intelligence.uptimeinstitute.com/resource/uptime-institute-global-data-center-survey-2023"),
    "radovanovic2021": Reference("Radovanović et al.", 2021, "Carbon-Aware Computing for Datacenters",
                                 "https://arxiv.org/abs/2106.11750"),
    "silerevans2012": Reference("Siler-Evans, Azevedo and Morgan", 2012, "Marginal Emissions Factors for the U.S. "
                                "Electricity System", "https://doi.org/10.1021/es204423k"),
    # V2-14 The Adversarial Wall
    "madry2018": Reference("Madry, Makelov, Schmidt, Tsipras and Vladu", 2018, "Towards Deep Learning Models "
                           "Resistant to Adversarial Attacks", "https://arxiv.org/abs/1706.06083"),
    "zhang2019trades": Reference("Zhang, Yu, Jiao, Xing, El Ghaoui and Jordan", 2019, "Theoretically Principled "
                                 "Trade-off between Robustness and Accuracy", "https://arxiv.org/abs/1901.08573"),
    "qin2019": Reference("Qin, Martens, Gowal, Krishnan, Dvijotham, Fawzi, De, Stanforth and Kohli", 2019,
                         "Adversarial Robustness through Local Linearization", "https://arxiv.org/abs/1907.02610"),
    "croce2020": Reference("Croce and Hein", 2020, "Reliable Evaluation of Adversarial Robustness with an "
                           "Ensemble of Diverse Parameter-free Attacks (AutoAttack leaderboard)",
                           "https://github.com/fra31/auto-attack"),
    "wong2020fast": Reference("Wong, Rice and Kolter", 2020, "Fast is Better than Free: Revisiting Adversarial "
                              "Training", "https://arxiv.org/abs/2001.03994"),
    "shafahi2019free": Reference("Shafahi, Najibi, Ghiasi, Xu, Dickerson, Studer, Davis, Taylor and Goldstein", 2019,
                                 "Adversarial Training for Free!", "https://arxiv.org/abs/1904.12843"),
    "goodfellow2015": Reference("Goodfellow, Shlens and Szegedy", 2015, "Explaining and Harnessing Adversarial "
                                "Examples", "https://arxiv.org/abs/1412.6572"),
    # ---- V2-17 The Constraints Never Lie ----
    "doroshenko2022": Reference("Doroshenko, Ghazi, Kamath, Kumar and Manurangsi", 2022, "Connect the Dots: "
                                "Tighter Discrete Approximations of Privacy Loss Distributions (PETS 2022; "
                                "dp-accounting's PLD accountant)", "https://arxiv.org/abs/2207.04380"),
    "nvidia_llama31_405b_fp8": Reference("NVIDIA", 2024, "Llama-3.1-405B-Instruct-FP8 model card (weights and "
                                         "activations of the linear layers in FP8: 16 to 8 bits per parameter)",
                                         "https://huggingface.co/nvidia/Llama-3.1-405B-Instruct-FP8"),
    # ---- V2-16 The Fairness Impossibility ----
    "chouldechova2017": Reference("Chouldechova", 2017, "Fair Prediction with Disparate Impact: A Study of Bias "
                                  "in Recidivism Prediction Instruments", "https://arxiv.org/abs/1703.00056"),
    "kleinberg2016": Reference("Kleinberg, Mullainathan and Raghavan", 2016, "Inherent Trade-Offs in the Fair "
                               "Determination of Risk Scores", "https://arxiv.org/abs/1609.05807"),
    "hardt2016": Reference("Hardt, Price and Srebro", 2016, "Equality of Opportunity in Supervised Learning",
                           "https://arxiv.org/abs/1610.02413"),
    "ugesp1978": Reference("US EEOC et al.", 1978, "Uniform Guidelines on Employee Selection Procedures, "
                           "29 CFR 1607.4(D)", "https://www.law.cornell.edu/cfr/text/29/1607.4"),
    "eu_ai_act": Reference("European Union", 2024, "Regulation (EU) 2024/1689 (Artificial Intelligence Act), "
                           "Art. 10 and Art. 99", "https://eur-lex.europa.eu/eli/reg/2024/1689/oj"),
    "ugesp1978_3": Reference("US EEOC et al.", 1978, "Uniform Guidelines on Employee Selection Procedures, "
                             "29 CFR 1607.3: discrimination defined; alternative procedures",
                             "https://www.law.cornell.edu/cfr/text/29/1607.3"),
    "eu_race_directive": Reference("Council of the European Union", 2000, "Directive 2000/43/EC implementing "
                                   "the principle of equal treatment between persons irrespective of racial or "
                                   "ethnic origin, Arts. 2 and 5", "https://eur-lex.europa.eu/eli/dir/2000/43/oj"),
    # ---- V2-13 The Privacy Measurement Gap ----
    "yeom2018": Reference("Yeom, Giacomelli, Fredrikson and Jha", 2018, "Privacy Risk in Machine Learning: "
                          "Analyzing the Connection to Overfitting (CSF 2018)", "https://arxiv.org/abs/1709.01604"),
    "jagielski2020": Reference("Jagielski, Ullman and Oprea", 2020, "Auditing Differentially Private Machine "
                               "Learning: How Private is Private SGD?", "https://arxiv.org/abs/2006.07709"),
    "carlini2022": Reference("Carlini, Chien, Nasr, Song, Terzis and Tramèr", 2022, "Membership Inference Attacks "
                             "From First Principles (IEEE S&P 2022)", "https://arxiv.org/abs/2112.03570"),
    "dp_accounting": Reference("Google", 0, "dp-accounting (Python library), RdpAccountant",
                               "https://github.com/google/differential-privacy/tree/main/python/dp_accounting"),
    "bassily2014": Reference("Bassily, Smith and Thakurta", 2014, "Private Empirical Risk Minimization: Efficient "
                             "Algorithms and Tight Error Bounds", "https://arxiv.org/abs/1405.7085"),
    "hipaa_164_514": Reference("US HHS", 0, "45 CFR 164.514(b): de-identification by Expert Determination or "
                               "Safe Harbor", "https://www.ecfr.gov/current/title-45/subtitle-A/subchapter-C/"
                               "part-164/subpart-E/section-164.514"),
    # ---- V2-12 The SLO Composition Trap ----
    "dean2013": Reference("Dean and Barroso", 2013, "The Tail at Scale (Communications of the ACM 56(2))",
                          "https://doi.org/10.1145/2408776.2408794"),
    "fenton1960": Reference("Fenton", 1960, "The Sum of Log-Normal Probability Distributions in Scatter "
                            "Transmission Systems", "https://doi.org/10.1109/TCOM.1960.1097606"),
    "sre_overload": Reference("Beyer, Jones, Petoff and Murphy (eds.)", 2016, "Site Reliability Engineering, "
                              "ch. 21 'Handling Overload' and ch. 22 'Addressing Cascading Failures'",
                              "https://sre.google/sre-book/handling-overload/"),
    "k8s_hpa": Reference("Kubernetes project", 0, "Horizontal Pod Autoscaling",
                         "https://kubernetes.io/docs/concepts/workloads/autoscaling/horizontal-pod-autoscale/"),
    "bronson2021": Reference("Bronson, Aghayev, Charapko and Zhu", 2021, "Metastable Failures in Distributed "
                             "Systems (HotOS '21)",
                             "https://sigops.org/s/conferences/hotos/2021/papers/hotos21-s11-bronson.pdf"),
    # ---- V1-05 The Activation Tax ----
    "hendrycks2016": Reference("Hendrycks and Gimpel", 2016, "Gaussian Error Linear Units (GELUs)",
                               "https://arxiv.org/abs/1606.08415"),
    "nvidia_dl_perf": Reference("NVIDIA", 0, "Deep Learning Performance: Get Started (math-limited and "
                                "memory-limited operations)",
                                "https://docs.nvidia.com/deeplearning/performance/dl-performance-getting-started/"),
    "nvidia_hopper": Reference("NVIDIA", 2022, "NVIDIA Hopper Architecture In-Depth (technical blog)",
                               "https://developer.nvidia.com/blog/nvidia-hopper-architecture-in-depth/"),
    # ---- V1-01 The Magnitude Awakening ----
    "he2016": Reference("He, Zhang, Ren and Sun", 2016, "Deep Residual Learning for Image Recognition",
                        "https://arxiv.org/abs/1512.03385"),
    "zhang2017_kws": Reference("Zhang, Suda, Lai and Chandra", 2017, "Hello Edge: Keyword Spotting on "
                               "Microcontrollers", "https://arxiv.org/abs/1711.07128"),
    "banbury2021": Reference("Banbury et al.", 2021, "MLPerf Tiny Benchmark", "https://arxiv.org/abs/2106.07597"),
    # ---- V1-02 The Iron Law ----
    "trtllm_precision": Reference("NVIDIA", 2024, "TensorRT-LLM documentation, 'Numerical Precision': INT8 "
                                  "weight-only quantization (W8A16)",
                                  "https://nvidia.github.io/TensorRT-LLM/reference/precision.html"),
    # ---- V1-03 The Constraint Tax ----
    "mlsysbook_workflow": Reference("Janapa Reddi et al.", 0, "Machine Learning Systems, Volume I, chapter 'ML "
                                    "Workflow' (the six lifecycle stages; constraint propagation, 2^(N−1))",
                                    "https://harvard-edge.github.io/cs249r_book_dev/vol1/ml_workflow/ml_workflow.html"),
    "boehm_basili2001": Reference("Boehm and Basili", 2001, "Software Defect Reduction Top 10 List (IEEE Computer "
                                  "34(1))", "https://www.cs.umd.edu/projects/SoftEng/ESEG/papers/82.78.pdf"),
    "stecklein2004": Reference("Stecklein et al. (NASA Johnson Space Center)", 2004, "Error Cost Escalation "
                               "Through the Project Life Cycle", "https://ntrs.nasa.gov/citations/20100036670"),
    # ---- V1-04 The Data Gravity Trap ----
    # ---- V1-06 The Quadratic Wall ----
    "dao2022": Reference("Dao, Fu, Ermon, Rudra and Ré", 2022, "FlashAttention: Fast and Memory-Efficient Exact "
                         "Attention with IO-Awareness", "https://arxiv.org/abs/2205.14135"),
    "radford2019": Reference("Radford et al.", 2019, "Language Models are Unsupervised Multitask Learners (GPT-2)",
                             "https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf"),
    "vaswani2017": Reference("Vaswani et al.", 2017, "Attention Is All You Need", "https://arxiv.org/abs/1706.03762"),
    "cuda_graphs": Reference("NVIDIA", 0, "CUDA C++ Programming Guide, 'CUDA Graphs' (launching a whole graph "
                             "of kernels with one call)", "https://docs.nvidia.com/cuda/cuda-c-programming-guide/"),
    # ---- V1-08 The Training Memory Budget ----
    "chen2016": Reference("Chen, Xu, Zhang and Guestrin", 2016, "Training Deep Nets with Sublinear Memory Cost",
                          "https://arxiv.org/abs/1604.06174"),
    "micikevicius2018": Reference("Micikevicius et al.", 2018, "Mixed Precision Training",
                                  "https://arxiv.org/abs/1710.03740"),
    "brown2020": Reference("Brown et al.", 2020, "Language Models are Few-Shot Learners",
                           "https://arxiv.org/abs/2005.14165"),
    # ---- V1-15 There Is No Free Fairness ----
    "title_vii_2000e2l": Reference("US Congress", 1991, "Civil Rights Act of 1991, sec. 106; Title VII sec. 703(l), "
                                   "42 U.S.C. 2000e–2(l): prohibition of discriminatory use of test scores",
                                   "https://www.law.cornell.edu/uscode/text/42/2000e-2"),
    # ---- V1-07 The Kernel Fusion Dividend ----
    "cuda_guide_async": Reference("NVIDIA", 0, "CUDA C++ Programming Guide: asynchronous concurrent execution "
                                  "and CUDA Graphs", "https://docs.nvidia.com/cuda/cuda-c-programming-guide/"),
    "hta_launch": Reference("Meta", 0, "Holistic Trace Analysis: CUDA kernel launch statistics",
                            "https://github.com/facebookresearch/HolisticTraceAnalysis/blob/main/docs/source/"
                            "features/cuda_kernel_launch_stats.rst"),
    "cudajl_graphs": Reference("JuliaGPU", 0, "CUDA.jl documentation: Graphs", "https://cuda.juliagpu.org/dev/usage/graphs/"),
    "triton_fused_softmax": Reference("Triton", 0, "Tutorial: Fused Softmax (a fused kernel against the same "
                                      "operations unfused, measured)",
                                      "https://triton-lang.org/main/getting-started/tutorials/02-fused-softmax.html"),
    "ansel2024": Reference("Ansel et al.", 2024, "PyTorch 2: Faster Machine Learning Through Dynamic Python "
                           "Bytecode Transformation and Graph Compilation (ASPLOS '24)",
                           "https://doi.org/10.1145/3620665.3640366"),
    # ---- V1-09 The Data Selection Tradeoff ----
    "wu2021curricula": Reference("Wu, Dyer and Neyshabur", 2021, "When Do Curricula Work? (ICLR 2021)",
                                 "https://arxiv.org/abs/2012.03107"),
    "hestness2017": Reference("Hestness et al.", 2017, "Deep Learning Scaling is Predictable, Empirically",
                              "https://arxiv.org/abs/1712.00409"),
    "munjal2022": Reference("Munjal, Hayat, Hayat, Sourati and Khan", 2022, "Towards Robust and Reproducible "
                            "Active Learning Using Neural Networks (CVPR 2022)", "https://arxiv.org/abs/2002.09564"),
    "beck2021": Reference("Beck, Sivasubramanian, Dani, Ramakrishnan and Iyer", 2021, "Effective Evaluation of Deep "
                          "Active Learning on Image Classification Tasks", "https://arxiv.org/abs/2106.15324"),
    "gashi2024": Reference("Gashi, Deng and Elezi", 2024, "Deep Active Learning: A Reality Check",
                           "https://arxiv.org/abs/2403.14800"),
    "torchvision_resnet50": Reference("PyTorch", 0, "torchvision.models.resnet50, ResNet50_Weights.IMAGENET1K_V1",
                                      "https://pytorch.org/vision/stable/models/generated/"
                                      "torchvision.models.resnet50.html"),
    # ---- V1-10 The Compression Frontier ----
    "krishnamoorthi2018": Reference("Krishnamoorthi", 2018, "Quantizing deep convolutional networks for efficient "
                                    "inference: A whitepaper", "https://arxiv.org/abs/1806.08342"),
    "wu2020": Reference("Wu, Judd, Zhang, Isaev and Micikevicius", 2020, "Integer Quantization for Deep Learning "
                        "Inference: Principles and Empirical Evaluation", "https://arxiv.org/abs/2004.09602"),
    "nagel2019": Reference("Nagel, van Baalen, Blankevoort and Welling", 2019, "Data-Free Quantization Through "
                           "Weight Equalization and Bias Correction", "https://arxiv.org/abs/1906.04721"),
    "huang2024": Reference("Huang et al.", 2024, "How Good Are Low-bit Quantized LLaMA3 Models? An Empirical Study",
                           "https://arxiv.org/abs/2404.14047"),
    "frantar2022": Reference("Frantar, Ashkboos, Hoefler and Alistarh", 2022, "GPTQ: Accurate Post-Training "
                             "Quantization for Generative Pre-trained Transformers", "https://arxiv.org/abs/2210.17323"),
    "mishra2021": Reference("Mishra et al.", 2021, "Accelerating Sparse Deep Neural Networks (2:4 semi-structured "
                            "sparsity on Ampere)", "https://arxiv.org/abs/2104.08378"),
    # ---- V1-12 The Speedup Ceiling ----
    "amdahl1967": Reference("Amdahl", 1967, "Validity of the single processor approach to achieving large scale "
                            "computing capabilities (AFIPS Spring Joint Computer Conference)",
                            "https://doi.org/10.1145/1465482.1465560"),
    "gustafson1988": Reference("Gustafson", 1988, "Reevaluating Amdahl's Law (Communications of the ACM 31(5))",
                               "https://doi.org/10.1145/42411.42415"),
    "reddi2020": Reference("Reddi et al.", 2020, "MLPerf Inference Benchmark (ISCA 2020)",
                           "https://arxiv.org/abs/1911.02549"),
    # ---- V1-11 The Roofline ----
    "coreml_typed": Reference("Apple", 0, "coremltools guide: Typed Execution Workflow Example (a float 16 model "
                              "may run on the Neural Engine; a float 32 model runs on the GPU and CPU)",
                              "https://apple.github.io/coremltools/docs-guides/source/typed-execution-example.html"),
    "frantar2023": Reference("Frantar, Ashkboos, Hoefler and Alistarh", 2023, "GPTQ: Accurate Post-Training "
                             "Quantization for Generative Pre-trained Transformers", "https://arxiv.org/abs/2210.17323"),
    # ---- V1-14 The Silent Degradation Problem ----
    "yurdakul2018": Reference("Yurdakul", 2018, "Statistical Properties of Population Stability Index "
                              "(PhD dissertation, Western Michigan University)",
                              "https://scholarworks.wmich.edu/dissertations/3208"),
    "dupisanie2023": Reference("du Pisanie, Allison, Budde and Visagie", 2023, "A critical review of existing and "
                               "new population stability testing procedures in credit risk scoring",
                               "https://arxiv.org/abs/2303.01227"),
    "jeffreys1946": Reference("Jeffreys", 1946, "An Invariant Form for the Prior Probability in Estimation "
                              "Problems", "https://doi.org/10.1098/rspa.1946.0056"),
    "harris1913": Reference("Harris", 1913, "How Many Parts to Make at Once (the economic order quantity)",
                            "https://doi.org/10.1287/opre.38.6.947"),
    # ---- V1-16 The Architect's Audit ----
    "ma2024": Reference("Ma et al.", 2024, "The Era of 1-bit LLMs: All Large Language Models are in 1.58 Bits "
                        "(BitNet b1.58)", "https://arxiv.org/abs/2402.17764"),
}


class UnknownReference(KeyError):
    """A citation key that is not in REFERENCES."""


def cite(key: str, note: str = "") -> str:
    """One source, formatted for a math peek, with what the lab takes from it."""
    try:
        return REFERENCES[key].text(note)
    except KeyError:
        raise UnknownReference(f"no reference {key!r}; known: {', '.join(sorted(REFERENCES))}") from None
