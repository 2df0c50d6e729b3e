// Trains a Weka classifier on an ARFF file and prints, for every training
// instance, the class distribution with full precision (one CSV line each).
// Usage: java -cp weka.jar:. [-Dstep=K] WekaProba <classifier class> <data.arff> [options...]
// (-Dstep=K: every K-th training instance only, from the first; a lazy learner's prediction is costly)
import weka.classifiers.Classifier;
import weka.core.Instances;
import weka.core.Utils;
import java.io.BufferedReader;
import java.io.FileReader;

public class WekaProba {
    public static void main(String[] args) throws Exception {
        Instances data = new Instances(new BufferedReader(new FileReader(args[1])));
        data.setClassIndex(data.numAttributes() - 1);
        String[] options = new String[args.length - 2];
        System.arraycopy(args, 2, options, 0, options.length);
        Classifier c = Classifier.forName(args[0], options);
        c.buildClassifier(data);
        int step = Integer.getInteger("step", 1);
        for (int i = 0; i < data.numInstances(); i += step) {
            double[] p = c.distributionForInstance(data.instance(i));
            StringBuilder line = new StringBuilder();
            for (int k = 0; k < p.length; k++) {
                if (k > 0) line.append(',');
                line.append(String.format("%.17g", p[k]));
            }
            System.out.println(line);
        }
    }
}
