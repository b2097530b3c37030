"""Reports: the results grading produces (`results`) and what people and tools read of them
(`formats`: the text the CLI prints, CSV rows, Gradescope's `results.json`)."""
