// Times a Weka classifier inside one JVM: after a warm-up run, the best of
// `repeats` runs of buildClassifier on an ARFF file, and of
// distributionForInstance over every instance. Prints "fit_seconds predict_seconds".
// Usage: java -cp weka.jar:. WekaTime <classifier class> <data.arff> <repeats> [options...]
import weka.classifiers.Classifier;
import weka.core.Instances;
import java.io.BufferedReader;
import java.io.FileReader;

public class WekaTime {
    public static void main(String[] args) throws Exception {
        Instances data = new Instances(new BufferedReader(new FileReader(args[1])));
        data.setClassIndex(data.numAttributes() - 1);
        int repeats = Integer.parseInt(args[2]);
        String[] options = new String[args.length - 3];
        System.arraycopy(args, 3, options, 0, options.length);
        double bestFit = Double.MAX_VALUE, bestPredict = Double.MAX_VALUE;
        for (int r = 0; r <= repeats; r++) {
            Classifier c = Classifier.forName(args[0], options.clone());
            long t0 = System.nanoTime();
            c.buildClassifier(data);
            long t1 = System.nanoTime();
            double sink = 0;
            for (int i = 0; i < data.numInstances(); i++) {
                sink += c.distributionForInstance(data.instance(i))[0];
            }
            long t2 = System.nanoTime();
            if (r > 0) {  // run 0 warms the JVM up
                bestFit = Math.min(bestFit, (t1 - t0) / 1e9);
                bestPredict = Math.min(bestPredict, (t2 - t1) / 1e9);
            }
            if (sink < -1) System.out.println(sink);
        }
        System.out.println(bestFit + " " + bestPredict);
    }
}
